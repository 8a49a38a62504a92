// The entry point: run the command line, exit with its status.
#if canImport(Glibc)
import Glibc
#endif

exit(Manna.run(arguments: Array(CommandLine.arguments.dropFirst())))
