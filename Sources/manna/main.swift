// The entry point: run the command line, exit with its status.
#if canImport(Glibc)
import Glibc
#endif

// A full disk or a file size limit (ulimit -f) must be an error message, not a kill:
// with SIGXFSZ ignored, the write fails with EFBIG and the command says so.
signal(SIGXFSZ, SIG_IGN)
exit(Manna.run(arguments: Array(CommandLine.arguments.dropFirst())))
