// manna-notify: shows one desktop notification (a JSON request on stdin), or probes the server.
#if canImport(Glibc)
import Glibc
#endif
import CLibnotify
import MannaKit

// The helper dies with the `manna` that started it. A tick killed before the server took the
// notification has its claim taken over by a later tick (docs/ARCHITECTURE.md, "The journal
// and the ledger"); a helper left running would show it as well, and the user would see it
// twice. (A parent gone before this line leaves us with another parent: stop there too.)
let started = Clock.monotonicMilliseconds()
let parent = getppid()
_ = manna_notify_die_with_parent()
if getppid() != parent || parent == 1 { exit(NotifyError.HelperStatus.failed.rawValue) }

exit(NotifyHelper.run(arguments: Array(CommandLine.arguments.dropFirst()), started: started))
