// A cue sheet or a timings file read from where the user put it: bounded, and each failure one
// line naming the file (cues check and import, audio add, listen --audio).
import MannaKit

enum CueSheetFile {
    /// The largest cue sheet read: a whole Bible's cues take about 3 MB.
    static let sizeLimit = 16 << 20

    /// The cue sheet at `path`, or why it is none.
    static func read(_ path: String) throws -> CueSheet {
        let text = try readText(path)
        do {
            return try CueSheet(json: try JSON(parsing: text))
        } catch let error as JSON.ParseError {
            throw Failure.data("\(path): not a cue sheet: \(error.message)")
        } catch let error as CueSheetError {
            throw Failure.data("\(path): not a cue sheet: \(error.problem)")
        }
    }

    /// The text of a cue sheet or timings file, at most `sizeLimit`, or why it cannot be read.
    static func readText(_ path: String) throws -> String {
        do {
            guard let text = try Files.readText(path, limit: sizeLimit) else { throw Failure.data("\(path): no such file") }
            return text
        } catch let error as FileError {
            throw Failure.data("\(path): \(error.reason)")
        }
    }
}
