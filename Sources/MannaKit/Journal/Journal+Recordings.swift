// Recorded readings registered on this machine (`manna audio add`): files, not the user's
// words, so they are not exported; `manna listen` plays one that covers a passage.

/// A recording and its cue sheet, as registered.
public struct RegisteredRecording: Equatable, Sendable {
    public let audio: String
    public let cues: String
    public let passage: String
    public let translation: String
    public let reader: String
    public let addedAt: Instant

    public init(audio: String, cues: String, passage: String, translation: String, reader: String, addedAt: Instant) {
        self.audio = audio
        self.cues = cues
        self.passage = passage
        self.translation = translation
        self.reader = reader
        self.addedAt = addedAt
    }
}

extension Journal {
    /// Registers `recording`, replacing what was registered for the same audio file.
    public func register(_ recording: RegisteredRecording) throws(JournalError) {
        do {
            try write {
                let insert = try database.prepare("""
                    INSERT OR REPLACE INTO recordings (audio, cues, passage, translation, reader, added_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                    """)
                try insert.bind(recording.audio, at: 1)
                try insert.bind(recording.cues, at: 2)
                try insert.bind(recording.passage, at: 3)
                try insert.bind(recording.translation, at: 4)
                try insert.bind(recording.reader, at: 5)
                try insert.bind(recording.addedAt, at: 6)
                try insert.run()
            }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Every registered recording, in the order they were added.
    public func recordings() throws(JournalError) -> [RegisteredRecording] {
        do {
            return try run {
                let statement = try database.prepare("SELECT audio, cues, passage, translation, reader, added_at FROM recordings ORDER BY added_at, audio")
                var recordings: [RegisteredRecording] = []
                while try statement.step() {
                    recordings.append(RegisteredRecording(
                        audio: try statement.string("audio"), cues: try statement.string("cues"), passage: try statement.string("passage"),
                        translation: try statement.string("translation"), reader: try statement.string("reader"), addedAt: try statement.int("added_at")))
                }
                return recordings
            }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Forgets the recording of `audio`; false when none was registered.
    @discardableResult
    public func unregister(audio: String) throws(JournalError) -> Bool {
        do {
            return try write {
                let delete = try database.prepare("DELETE FROM recordings WHERE audio = ?1")
                try delete.bind(audio, at: 1)
                try delete.run()
                return database.changes > 0
            }
        } catch {
            throw error as? JournalError ?? .unwritable(path: path, reason: "\(error)")
        }
    }
}
