// The helper's command line: read the request, talk to the server, report one line and a status.
// See docs/ARCHITECTURE.md, "Notifications", for why this is a program of its own.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum NotifyHelper {
    static let usage = """
        usage: manna-notify < REQUEST.json
               manna-notify --probe

        Shows one desktop notification: REQUEST.json is one JSON object with app_name, summary,
        body, icon, category, desktop_entry, urgency (0-2) and expire_timeout (ms, -1: default),
        and optionally actions: [{key, label, command: [PATH, ARG...]}]. A detached process
        shows it, takes it back if this helper dies before hearing it was shown, and, with
        actions, stays behind (at most 8 hours) to run the clicked action's command.
        --probe prints the notification server's name, vendor, version, spec_version and
        capabilities as one JSON line. Exit status: 0 shown, 10 no session bus, 11 no
        notification server, 12 the server did not answer (nothing sent), 13 it failed,
        14 sent but not confirmed in time (a slow server may still show it), 64 bad usage;
        a failure is also reported as one JSON line on stderr: {"error": KIND, ..., "message": TEXT}.

        """

    /// - Parameter started: when the helper started (`Clock.monotonicMilliseconds`), for its deadline.
    static func run(arguments: [String], started: Int) -> Int32 {
        do throws(NotifyError) {
            switch arguments {
            case []:
                let notification: DesktopNotification
                do {
                    notification = try DesktopNotification(request: try readStandardInput())
                } catch {
                    return fail(.failed(error.message), status: .usage)
                }
                return DetachedShow.show(notification, started: started)
            case ["--probe"]:
                write(try NotificationServerConnection().server().json.text + "\n", to: 1)
            case ["--help"], ["-h"]:
                write(usage, to: 1)
            default:
                write(usage, to: 2)
                return NotifyError.HelperStatus.usage.rawValue
            }
            return NotifyError.HelperStatus.shown.rawValue
        } catch {
            return fail(error)
        }
    }

    /// Reports `error` as its one JSON line on stderr (`NotifyError.json`, which `manna` reads
    /// back) and returns the status to exit with: the error's own, or `status`.
    static func fail(_ error: NotifyError, status: NotifyError.HelperStatus? = nil) -> Int32 {
        write(error.json.text + "\n", to: 2)
        return (status ?? error.helperStatus).rawValue
    }

    /// The request: all of stdin, at most 1 MB.
    private static func readStandardInput() throws(NotificationRequestError) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw NotificationRequestError(problem: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > 1 << 20 { throw NotificationRequestError(problem: "more than 1 MB") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func write(_ text: String, to descriptor: Int32) { Files.write(text, toDescriptor: descriptor) }
}
