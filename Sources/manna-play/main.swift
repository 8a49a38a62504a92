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

// _exit, not exit: the sound server's thread, the desktop bus's and the render thread may still
// be running when the player is done, and exit's library destructors (libpulse has some) would
// run beside them; a player ended with status 139 once in CI, after its last verse. Everything
// it says goes straight to its descriptors (Files.write), so nothing buffered is lost.
_exit(PlayHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
