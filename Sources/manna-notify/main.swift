// manna-notify: shows one desktop notification (a JSON request on stdin), or probes the server.
#if canImport(Glibc)
import Glibc
#endif

exit(NotifyHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
