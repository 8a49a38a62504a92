// manna-play: speaks a passage through the sound server, renders it to a file, or lists the
// voices. `manna listen` runs it; see docs/ARCHITECTURE.md, "Listening".
import CPulse
#if canImport(Glibc)
import Glibc
#endif

// The player dies with the `manna` that started it: nothing may go on speaking, or hold the
// sound device, after `manna listen` is gone. (A parent gone before this line: stop there too.)
let parent = getppid()
_ = manna_play_die_with_parent()
if getppid() != parent || parent == 1 { exit(69) }

exit(PlayHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
