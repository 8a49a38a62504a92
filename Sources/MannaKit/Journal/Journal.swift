// The journal: the user's own database (journal.sqlite, WAL, 0600 in a 0700 folder), opened,
// created and migrated here. Each feature's queries are an extension beside this file:
// +Deliveries (the scheduler's ledger), +Prayers, +Plans, +Marks, +SearchHistory, +Identity,
// +Export and +Import. Stores of their own share its connection: ListeningStore (where
// listening stopped), RecordingStore (registered audio), and sync's `SyncEngine` (Sync/).
// ReadingLock and ClaimHolder are the locks a reader and a ledger claim hold.
#if canImport(Glibc)
import Glibc
#endif

/// Why the journal cannot be used. A damaged journal is never overwritten.
public enum JournalError: Error, Equatable, Sendable {
    case damaged(path: String)
    case tooNew(path: String, version: Int)
    case unwritable(path: String, reason: String)

    public var message: String {
        switch self {
        case .damaged(let path):
            return "the journal \(path) is damaged and was left untouched: move it aside (mv \(path) \(path).damaged) to start a new one, or restore it from a backup"
        case .tooNew(let path, let version):
            return "the journal \(path) has schema version \(version), newer than this manna understands (\(Journal.migrations.count)); update manna"
        case .unwritable(let path, let reason):
            return "cannot use the journal \(path): \(reason)"
        }
    }
}

public final class Journal {
    public let path: String
    /// The connection: a reader's that changes nothing on disk until the first write, which
    /// opens the journal as a writer in its place (`init(openingForReading:)`, `becomeWriter`).
    private(set) var database: Database
    /// Opened for reading, immutable: the file's identity then (`Files.identity`), by which
    /// each read tells that no writer came while it read. Nil once opened as a writer.
    private var readingUnchanged: String?
    /// Held while `readingUnchanged` is: no writer checkpoints into the file meanwhile.
    private var readingLock: ReadingLock?
    private let legacyPlan: LegacyPlan?
    /// Each reminder SPEC parsed once (nil: it does not parse): a tick reads every active
    /// reminder, and its thousand reminders are a few SPECs.
    var parsedSpecs: [String: ReminderSpec?] = [:]
    /// This connection's hold on the claims it makes in the delivery ledger, taken at its first
    /// claim (or first question about another's) and let go when the journal is closed.
    var claimHolder: ClaimHolder?

    /// One change of the schema, named, as GRDB's migrator keeps them: its body runs on the
    /// connection inside the transaction that migrates.
    struct Migration: Sendable {
        let name: String
        let migrate: @Sendable (Database) throws -> Void

        init(_ name: String, _ migrate: @escaping @Sendable (Database) throws -> Void) {
            (self.name, self.migrate) = (name, migrate)
        }

        /// A migration that is these statements, made when it runs: every command that opens a
        /// journal reads the list, and making migration 16's triggers was 670k instructions.
        init(_ name: String, sql: @escaping @autoclosure @Sendable () -> String) {
            self.init(name) { database in try database.execute(sql()) }
        }
    }

    /// Schema migrations, in order: migration N (the Nth here) takes `user_version` N-1 to N,
    /// so `user_version` is how many were applied. Never edit one that has shipped; add the next.
    static let migrations: [Migration] = [
        // 1: the scheduler's delivery ledger. One row per occurrence ever claimed: the
        // primary key makes a second claim of the same occurrence fail, which is how two
        // ticks at once, or a tick re-run, never show one twice.
        Migration("deliveryLedger", sql: """
            CREATE TABLE deliveries (
                kind TEXT NOT NULL,             -- 'verse', 'prayer', 'plan'
                key TEXT NOT NULL,              -- which reminder's uuid ('' for the verse of the day)
                occurrence TEXT NOT NULL,       -- the local date, or the occurrence's local date and time
                claimed_at INTEGER NOT NULL,    -- Unix seconds
                late INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (kind, key, occurrence)
            ) WITHOUT ROWID;
            """),
        // 2: what the user writes. Every record has a stable UUID (export and import merge by
        // it), a short id to type, and created/updated times (Unix seconds; import keeps the
        // newest update). Deleting sets deleted_at: the row stays as a tombstone, so a
        // deletion travels through export and import, and `restore` can undo it.
        Migration("records", sql: """
            CREATE TABLE prayers (
                uuid TEXT PRIMARY KEY,
                short_id TEXT NOT NULL UNIQUE,      -- what users type: 'k7m2'
                title TEXT NOT NULL,
                body TEXT NOT NULL DEFAULT '',
                tags TEXT NOT NULL DEFAULT '',      -- ',' + each tag + ',' (so LIKE '%,tag,%' finds one)
                answered_at INTEGER,                -- null while the prayer is open
                answer_note TEXT,
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE TABLE reminders (
                uuid TEXT PRIMARY KEY,
                prayer_uuid TEXT NOT NULL REFERENCES prayers(uuid),
                spec TEXT NOT NULL,                 -- as normalized by the spec parser: 'mon,wed,fri 21:00'
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX reminders_by_prayer ON reminders(prayer_uuid);
            CREATE TABLE plan_runs (
                uuid TEXT PRIMARY KEY,
                plan_id TEXT NOT NULL,
                started_on TEXT NOT NULL,           -- local date the user started
                schedule_start TEXT NOT NULL,       -- local date of day 1 as now scheduled (catch-up moves it)
                remind_at TEXT,                     -- optional 'HH:MM' plan reminder
                stopped_at INTEGER,                 -- null for the running plan (at most one)
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE TABLE plan_days_read (
                run_uuid TEXT NOT NULL REFERENCES plan_runs(uuid),
                day INTEGER NOT NULL,               -- the plan's day number
                read_on TEXT NOT NULL,              -- the local date it was marked read (streaks)
                created_at INTEGER NOT NULL,
                PRIMARY KEY (run_uuid, day)
            ) WITHOUT ROWID;
            CREATE TABLE notes (
                uuid TEXT PRIMARY KEY,
                short_id TEXT NOT NULL UNIQUE,
                verse_id INTEGER NOT NULL,
                text TEXT NOT NULL,
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX notes_by_verse ON notes(verse_id);
            CREATE TABLE highlights (
                uuid TEXT PRIMARY KEY,
                short_id TEXT NOT NULL UNIQUE,
                verse_id INTEGER NOT NULL,
                color TEXT NOT NULL,                -- yellow, green, blue, pink, purple
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX highlights_by_verse ON highlights(verse_id);
            CREATE TABLE bookmarks (
                uuid TEXT PRIMARY KEY,
                short_id TEXT NOT NULL UNIQUE,
                verse_id INTEGER NOT NULL,
                deleted_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            );
            CREATE INDEX bookmarks_by_verse ON bookmarks(verse_id);
            CREATE TABLE searches (
                id INTEGER PRIMARY KEY,
                query TEXT NOT NULL,
                translation TEXT NOT NULL,
                searched_at INTEGER NOT NULL
            );
            """),
        // 3: notes and bookmarks are on a passage, found at its first verse (verse_id): the
        // passage as the user gave it, canonical ('John 3:16-18'), so `read` still needs only
        // an index range on verse_id. NULL (rows from schema 2) means the single verse.
        Migration("passages", sql: """
            ALTER TABLE notes ADD COLUMN reference TEXT;
            ALTER TABLE bookmarks ADD COLUMN reference TEXT;
            """),
        // 4: prayer reminders at work. `prayed` logs each time a prayer was marked prayed (the
        // notification's "Prayed" button, or `manna pray prayed`); a snooze is a one-off
        // reminder the scheduler shows like any occurrence; `scheduler_marks` keeps the instant
        // up to which reminder occurrences have been handled, so a tick looks only at what came
        // due since. The partial indexes hold every column `pray list` reads, in its order (they
        // cover it), so a list reads neither bodies nor the rows it skips.
        Migration("prayerReminders", sql: """
            CREATE TABLE prayed (
                uuid TEXT PRIMARY KEY,
                prayer_uuid TEXT NOT NULL REFERENCES prayers(uuid),
                prayed_at INTEGER NOT NULL
            );
            CREATE INDEX prayed_by_prayer ON prayed(prayer_uuid, prayed_at);
            CREATE TABLE snoozes (
                uuid TEXT PRIMARY KEY,
                prayer_uuid TEXT NOT NULL REFERENCES prayers(uuid),
                due_at INTEGER NOT NULL,            -- Unix seconds: shown by the first tick at or after it
                created_at INTEGER NOT NULL
            );
            CREATE INDEX snoozes_by_due ON snoozes(due_at);
            CREATE TABLE scheduler_marks (
                name TEXT PRIMARY KEY,              -- 'reminders'
                instant INTEGER NOT NULL            -- occurrences up to here were handled (Unix seconds)
            ) WITHOUT ROWID;
            CREATE INDEX prayers_open ON prayers(created_at, short_id, title, tags, answered_at, deleted_at)
                WHERE deleted_at IS NULL AND answered_at IS NULL;
            CREATE INDEX prayers_answered ON prayers(answered_at, short_id, title, tags, created_at, deleted_at)
                WHERE deleted_at IS NULL AND answered_at IS NOT NULL;
            """),
        // 5: the reading plan an older config file named (`plan`, `plan_start`) moves into
        // plan_runs, once. No schema changes, so its body does nothing: the move needs the
        // config file's plan, which `migrate` has, and inserts the run (`LegacyPlan`) right
        // after it in the same transaction, so no read of the journal ever writes it later.
        Migration(Journal.legacyPlanMigration) { _ in },
        // 6: a claim is recoverable. `shown_at` is set once the notification was shown (or
        // handed to a server that may yet show it); a claim without it left by a tick that died
        // is taken over by a later tick (once older than a lease; since 12, once its holder is gone).
        // Claims made before were shown. `scheduler_events` keeps what the scheduler has to
        // tell once, not every minute: the last failure to show a notification.
        Migration("recoverableClaims", sql: """
            ALTER TABLE deliveries ADD COLUMN shown_at INTEGER;
            UPDATE deliveries SET shown_at = claimed_at;
            CREATE TABLE scheduler_events (
                name TEXT PRIMARY KEY,              -- 'notify-failed'
                instant INTEGER NOT NULL,           -- Unix seconds
                detail TEXT NOT NULL
            ) WITHOUT ROWID;
            """),
        // 7: where listening stopped, so `manna listen` with no passage goes on from there.
        Migration("listeningPlace", sql: """
            CREATE TABLE listening (
                name TEXT PRIMARY KEY,              -- 'resume'
                passage TEXT NOT NULL,              -- the passage as Manna writes it, parsed again to resume
                translation TEXT NOT NULL,
                verse_id INTEGER NOT NULL,          -- the verse being heard when listening stopped
                voice TEXT,                         -- --voice and --rate, when given
                rate INTEGER,
                updated_at INTEGER NOT NULL         -- Unix seconds
            ) WITHOUT ROWID;
            """),
        // 8: recorded readings registered with `manna audio add`, by their files on this
        // machine: `manna listen` plays one that covers the passage rather than speak it. A
        // listening place in a recording keeps its files, so resuming plays it again.
        Migration("recordings", sql: """
            ALTER TABLE listening ADD COLUMN audio TEXT;
            ALTER TABLE listening ADD COLUMN cues TEXT;
            CREATE TABLE recordings (
                audio TEXT PRIMARY KEY,             -- the audio file's absolute path
                cues TEXT NOT NULL,                 -- its cue sheet's absolute path
                passage TEXT NOT NULL,              -- as the cue sheet names it
                translation TEXT NOT NULL,
                reader TEXT NOT NULL,
                added_at INTEGER NOT NULL           -- Unix seconds
            ) WITHOUT ROWID;
            """),
        // 9: sync (docs/sync.md). `sync_state` is this device in its sync folder (no row: not
        // syncing); `sync_fields` every synced field's winning version, which is what the
        // journal's own tables are compared with to find local edits; `sync_versions` every
        // version of a text field, to tell edits made apart (both kept) from edits in turn;
        // `sync_devices` the other devices and how far their segments are applied;
        // `sync_outbox` changes captured but not yet written to a segment. Any write to a
        // synced table marks the state dirty, so a tick with nothing new compares nothing.
        Migration("sync", sql: """
            CREATE TABLE sync_state (
                name TEXT PRIMARY KEY,              -- 'this'
                device TEXT NOT NULL,               -- this device's id in the folder (a uuid)
                device_name TEXT NOT NULL,
                folder TEXT NOT NULL,               -- the synced folder, absolute
                clock INTEGER NOT NULL,             -- the greatest hybrid time written or seen
                sequence INTEGER NOT NULL,          -- the last segment written
                sequence_sha TEXT,                  -- its checksum: another at that number means a copied journal
                dirty INTEGER NOT NULL,
                checked_at INTEGER,                 -- Unix seconds of the last sync
                folder_mtime INTEGER,               -- the devices' folder's mtime (ns) when last read
                problem TEXT                        -- what stopped the last sync, for status and doctor
            ) WITHOUT ROWID;
            CREATE TABLE sync_fields (
                tbl TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL,
                value,                              -- as the journal's column holds it
                time INTEGER NOT NULL, device TEXT NOT NULL,
                PRIMARY KEY (tbl, key, field)
            ) WITHOUT ROWID;
            CREATE TABLE sync_versions (
                tbl TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL,
                time INTEGER NOT NULL, device TEXT NOT NULL,
                base_time INTEGER, base_device TEXT,
                value, context TEXT,                -- context: the record as its editor had it (JSON)
                PRIMARY KEY (tbl, key, field, time, device)
            ) WITHOUT ROWID;
            CREATE TABLE sync_devices (
                device TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                applied INTEGER NOT NULL,           -- segments applied: 1 to this
                last_time INTEGER,                  -- the newest hybrid time applied from it
                folder_mtime INTEGER,               -- its folder's mtime (ns) when last read: unchanged, nothing new
                problem TEXT
            ) WITHOUT ROWID;
            CREATE TABLE sync_outbox (
                sequence INTEGER NOT NULL, position INTEGER NOT NULL, change TEXT NOT NULL,
                PRIMARY KEY (sequence, position)
            ) WITHOUT ROWID;
            CREATE TRIGGER sync_dirty_prayers_insert AFTER INSERT ON prayers BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_prayers_update AFTER UPDATE ON prayers BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_prayers_delete AFTER DELETE ON prayers BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_reminders_insert AFTER INSERT ON reminders BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_reminders_update AFTER UPDATE ON reminders BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_reminders_delete AFTER DELETE ON reminders BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_prayed_insert AFTER INSERT ON prayed BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_prayed_update AFTER UPDATE ON prayed BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_prayed_delete AFTER DELETE ON prayed BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_snoozes_insert AFTER INSERT ON snoozes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_snoozes_update AFTER UPDATE ON snoozes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_snoozes_delete AFTER DELETE ON snoozes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_runs_insert AFTER INSERT ON plan_runs BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_runs_update AFTER UPDATE ON plan_runs BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_runs_delete AFTER DELETE ON plan_runs BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_days_read_insert AFTER INSERT ON plan_days_read BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_days_read_update AFTER UPDATE ON plan_days_read BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_plan_days_read_delete AFTER DELETE ON plan_days_read BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_notes_insert AFTER INSERT ON notes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_notes_update AFTER UPDATE ON notes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_notes_delete AFTER DELETE ON notes BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_highlights_insert AFTER INSERT ON highlights BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_highlights_update AFTER UPDATE ON highlights BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_highlights_delete AFTER DELETE ON highlights BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_bookmarks_insert AFTER INSERT ON bookmarks BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_bookmarks_update AFTER UPDATE ON bookmarks BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_bookmarks_delete AFTER DELETE ON bookmarks BEGIN UPDATE sync_state SET dirty = 1; END;
            """),
        // 10: the search history syncs when asked for (`manna sync init DIR --searches`).
        Migration("syncedSearches", sql: """
            ALTER TABLE sync_state ADD COLUMN searches INTEGER NOT NULL DEFAULT 0;
            CREATE TRIGGER sync_dirty_searches_insert AFTER INSERT ON searches BEGIN UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_dirty_searches_delete AFTER DELETE ON searches BEGIN UPDATE sync_state SET dirty = 1; END;
            """),
        // 11: a write to a synced table names the record in `sync_touched` (while the journal
        // syncs), so a capture compares the records written since the last, not every record.
        // (Not INSERT OR IGNORE: an upsert's conflict handling overrides a trigger's.)
        Migration("syncTouched", sql: """
            CREATE TABLE sync_touched (tbl TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID;
            DROP TRIGGER sync_dirty_prayers_insert;
            DROP TRIGGER sync_dirty_prayers_update;
            DROP TRIGGER sync_dirty_prayers_delete;
            DROP TRIGGER sync_dirty_reminders_insert;
            DROP TRIGGER sync_dirty_reminders_update;
            DROP TRIGGER sync_dirty_reminders_delete;
            DROP TRIGGER sync_dirty_prayed_insert;
            DROP TRIGGER sync_dirty_prayed_update;
            DROP TRIGGER sync_dirty_prayed_delete;
            DROP TRIGGER sync_dirty_snoozes_insert;
            DROP TRIGGER sync_dirty_snoozes_update;
            DROP TRIGGER sync_dirty_snoozes_delete;
            DROP TRIGGER sync_dirty_plan_runs_insert;
            DROP TRIGGER sync_dirty_plan_runs_update;
            DROP TRIGGER sync_dirty_plan_runs_delete;
            DROP TRIGGER sync_dirty_plan_days_read_insert;
            DROP TRIGGER sync_dirty_plan_days_read_update;
            DROP TRIGGER sync_dirty_plan_days_read_delete;
            DROP TRIGGER sync_dirty_notes_insert;
            DROP TRIGGER sync_dirty_notes_update;
            DROP TRIGGER sync_dirty_notes_delete;
            DROP TRIGGER sync_dirty_highlights_insert;
            DROP TRIGGER sync_dirty_highlights_update;
            DROP TRIGGER sync_dirty_highlights_delete;
            DROP TRIGGER sync_dirty_bookmarks_insert;
            DROP TRIGGER sync_dirty_bookmarks_update;
            DROP TRIGGER sync_dirty_bookmarks_delete;
            DROP TRIGGER sync_dirty_searches_insert;
            DROP TRIGGER sync_dirty_searches_delete;
            CREATE TRIGGER sync_touch_prayers_insert AFTER INSERT ON prayers WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayers', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayers' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_prayers_update AFTER UPDATE ON prayers WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayers', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayers' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_prayers_delete AFTER DELETE ON prayers WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayers', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayers' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_reminders_insert AFTER INSERT ON reminders WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'reminders', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'reminders' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_reminders_update AFTER UPDATE ON reminders WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'reminders', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'reminders' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_reminders_delete AFTER DELETE ON reminders WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'reminders', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'reminders' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_prayed_insert AFTER INSERT ON prayed WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayed', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayed' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_prayed_update AFTER UPDATE ON prayed WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayed', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayed' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_prayed_delete AFTER DELETE ON prayed WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'prayed', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'prayed' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_snoozes_insert AFTER INSERT ON snoozes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'snoozes', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'snoozes' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_snoozes_update AFTER UPDATE ON snoozes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'snoozes', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'snoozes' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_snoozes_delete AFTER DELETE ON snoozes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'snoozes', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'snoozes' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_runs_insert AFTER INSERT ON plan_runs WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_runs', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_runs' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_runs_update AFTER UPDATE ON plan_runs WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_runs', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_runs' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_runs_delete AFTER DELETE ON plan_runs WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_runs', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_runs' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_days_read_insert AFTER INSERT ON plan_days_read WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_days_read', NEW.run_uuid || char(31) || NEW.day WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_days_read' AND key = NEW.run_uuid || char(31) || NEW.day); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_days_read_update AFTER UPDATE ON plan_days_read WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_days_read', NEW.run_uuid || char(31) || NEW.day WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_days_read' AND key = NEW.run_uuid || char(31) || NEW.day); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_plan_days_read_delete AFTER DELETE ON plan_days_read WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'plan_days_read', OLD.run_uuid || char(31) || OLD.day WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'plan_days_read' AND key = OLD.run_uuid || char(31) || OLD.day); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_notes_insert AFTER INSERT ON notes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'notes', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'notes' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_notes_update AFTER UPDATE ON notes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'notes', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'notes' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_notes_delete AFTER DELETE ON notes WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'notes', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'notes' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_highlights_insert AFTER INSERT ON highlights WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'highlights', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'highlights' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_highlights_update AFTER UPDATE ON highlights WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'highlights', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'highlights' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_highlights_delete AFTER DELETE ON highlights WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'highlights', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'highlights' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_bookmarks_insert AFTER INSERT ON bookmarks WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'bookmarks', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'bookmarks' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_bookmarks_update AFTER UPDATE ON bookmarks WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'bookmarks', NEW.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'bookmarks' AND key = NEW.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_bookmarks_delete AFTER DELETE ON bookmarks WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'bookmarks', OLD.uuid WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'bookmarks' AND key = OLD.uuid); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_searches_insert AFTER INSERT ON searches WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'searches', NEW.query || char(31) || NEW.translation || char(31) || NEW.searched_at WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'searches' AND key = NEW.query || char(31) || NEW.translation || char(31) || NEW.searched_at); UPDATE sync_state SET dirty = 1; END;
            CREATE TRIGGER sync_touch_searches_delete AFTER DELETE ON searches WHEN EXISTS (SELECT 1 FROM sync_state)
                BEGIN INSERT INTO sync_touched SELECT 'searches', OLD.query || char(31) || OLD.translation || char(31) || OLD.searched_at WHERE NOT EXISTS (SELECT 1 FROM sync_touched WHERE tbl = 'searches' AND key = OLD.query || char(31) || OLD.translation || char(31) || OLD.searched_at); UPDATE sync_state SET dirty = 1; END;
            -- A journal that already syncs compares every record once: what it knew, and what is in its tables.
            INSERT OR IGNORE INTO sync_touched SELECT tbl, key FROM sync_fields;
            INSERT OR IGNORE INTO sync_touched SELECT 'prayers', uuid FROM prayers WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'reminders', uuid FROM reminders WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'prayed', uuid FROM prayed WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'snoozes', uuid FROM snoozes WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'plan_runs', uuid FROM plan_runs WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'plan_days_read', run_uuid || char(31) || day FROM plan_days_read WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'notes', uuid FROM notes WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'highlights', uuid FROM highlights WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'bookmarks', uuid FROM bookmarks WHERE EXISTS (SELECT 1 FROM sync_state);
            INSERT OR IGNORE INTO sync_touched SELECT 'searches', query || char(31) || translation || char(31) || searched_at FROM searches WHERE EXISTS (SELECT 1 FROM sync_state);
            """),
        // 12: a claim names its holder, the live process that made it (`ClaimHolder`: a lock on
        // one byte of journal.sqlite-claims, which the kernel drops when the process dies). A claim
        // not yet shown is taken over only when its holder is gone, not when it looks old on a
        // clock: overlapping ticks may run on clocks a minute or a day apart. Claims made before
        // have no holder, and no holder that lives.
        Migration("claimHolders", sql: """
            ALTER TABLE deliveries ADD COLUMN holder INTEGER;
            """),
        // 13: changes from other devices refused by the checks `import` makes (a verse id that
        // does not exist, a title that is null, a text past the cap): not applied, kept here for
        // `sync status` and `doctor`, never blocking the rest of the segment.
        Migration("syncRefused", sql: """
            CREATE TABLE sync_refused (
                device TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL, field TEXT NOT NULL,
                sequence INTEGER NOT NULL,          -- the segment it came in
                problem TEXT NOT NULL,              -- one line: the record, the field and what it must be
                PRIMARY KEY (device, tbl, key, field)
            ) WITHOUT ROWID;
            """),
        // 14: a segment whose content was refused (damaged, half there, from a newer Manna) is
        // remembered by its file's identity (`Files.identity`: size, mtime, inode), so later
        // syncs report its problem again without re-reading megabytes every tick, until the
        // file changes. `sync status` says when each device's last segment was applied here,
        // since when its problem has stood (after an hour it is asked for a snapshot), and when
        // a sync last ended with no problem.
        Migration("rejectedSegments", sql: """
            ALTER TABLE sync_devices ADD COLUMN rejected TEXT;     -- '<file name> <identity>' of each file refused, one a line
            ALTER TABLE sync_devices ADD COLUMN applied_at INTEGER; -- Unix seconds its last segment was applied here
            ALTER TABLE sync_devices ADD COLUMN problem_since INTEGER; -- Unix seconds since its problem has stood
            ALTER TABLE sync_state ADD COLUMN synced_at INTEGER;    -- Unix seconds of the last sync with no problem
            """),
        // 15: a journal's size costs no read (issue 31). Deleted marks, deleted reminders and
        // stopped plans stay as tombstones for ever, so what a command reads goes through indexes
        // of the live rows only: a list in its order with no sort, a verse's marks without its
        // deleted ones, a tick's reminders and running plans without the rest
        // (`JournalSizeTests`). The marks' indexes replace those on every row of a verse. The
        // prayer lists' indexes cover them again: `pray list --json` added the uuid, and each
        // prayer listed had cost a lookup in the table since.
        Migration("liveIndexes", sql: """
            DROP INDEX prayers_open;
            DROP INDEX prayers_answered;
            CREATE INDEX prayers_open ON prayers(created_at, short_id, title, tags, answered_at, deleted_at, uuid)
                WHERE deleted_at IS NULL AND answered_at IS NULL;
            CREATE INDEX prayers_answered ON prayers(answered_at, short_id, title, tags, created_at, deleted_at, uuid)
                WHERE deleted_at IS NULL AND answered_at IS NOT NULL;
            DROP INDEX notes_by_verse;
            DROP INDEX highlights_by_verse;
            DROP INDEX bookmarks_by_verse;
            CREATE INDEX notes_live ON notes(verse_id, created_at, uuid) WHERE deleted_at IS NULL;
            CREATE INDEX highlights_live ON highlights(verse_id, created_at, uuid) WHERE deleted_at IS NULL;
            CREATE INDEX bookmarks_live ON bookmarks(verse_id, created_at, uuid) WHERE deleted_at IS NULL;
            CREATE INDEX reminders_live ON reminders(prayer_uuid) WHERE deleted_at IS NULL;
            CREATE INDEX plan_runs_running ON plan_runs(created_at, uuid) WHERE stopped_at IS NULL AND deleted_at IS NULL;
            """),
        // 16: the capture triggers made from each synced table's description
        // (`ExportTable.captureTriggers`), no longer typed out one by one (migration 11): the
        // same triggers, and the search history's update trigger, which no write fires today.
        // A synced table added later gets its triggers by a migration naming it here alike.
        Migration("generatedCaptureTriggers", sql:
            [ExportTable.prayers, .reminders, .prayed, .snoozes, .planRuns, .planDaysRead, .notes, .highlights, .bookmarks, .searches]
                .map { $0.captureTriggers(checkingSyncState: true) }.joined(separator: "\n")),
        // 17: the ids this journal synced under before it went on as a new device (a copy, a
        // device forgotten, a clock set right). Their segments are its own, stamped by its own
        // clock: one stamped far ahead (written while the clock was, by a journal a backup put
        // back has since replaced) is applied, then withdrawn and sent again stamped now
        // (`Sync.withdrawFuture`), not held for the skew while no journal is left to withdraw it.
        Migration("ownDeviceIDs", sql: "ALTER TABLE sync_devices ADD COLUMN mine INTEGER NOT NULL DEFAULT 0; -- 1: an id this journal synced under"),
        // 18: the reminders' forecast (`ReminderForecast`, issue 31): when the first active
        // reminder next comes, and their SPECs, as the last tick that read them all worked out,
        // so a tick with nothing due reads this row instead of every reminder. Local, never
        // synced. These triggers are the whole of its invalidation: any write a reminder's time
        // or its being active depends on drops it, whoever makes it (a command, import, sync).
        Migration("reminderForecast", sql: """
            CREATE TABLE reminder_forecast (
                zone TEXT NOT NULL,         -- the zone and its rules' file the instants are in (Zone.rulesKey)
                after INTEGER NOT NULL,     -- no active reminder comes in (after, next)
                next INTEGER,               -- null: none ever will
                specs TEXT NOT NULL         -- the active reminders' SPECs, each once, one a line
            );
            CREATE TRIGGER reminder_forecast_reminder_insert AFTER INSERT ON reminders BEGIN DELETE FROM reminder_forecast; END;
            CREATE TRIGGER reminder_forecast_reminder_update AFTER UPDATE ON reminders BEGIN DELETE FROM reminder_forecast; END;
            CREATE TRIGGER reminder_forecast_reminder_delete AFTER DELETE ON reminders BEGIN DELETE FROM reminder_forecast; END;
            CREATE TRIGGER reminder_forecast_prayer_insert AFTER INSERT ON prayers BEGIN DELETE FROM reminder_forecast; END;
            CREATE TRIGGER reminder_forecast_prayer_update AFTER UPDATE OF answered_at, deleted_at ON prayers BEGIN DELETE FROM reminder_forecast; END;
            CREATE TRIGGER reminder_forecast_prayer_delete AFTER DELETE ON prayers BEGIN DELETE FROM reminder_forecast; END;
            """),
        // 19: the capture triggers only while the journal syncs (issue 31). SQLite parses every
        // trigger whenever a journal is opened, and migration 16's thirty were two thirds of what
        // opening one cost, syncing or not: a read of a verse paid for them. `SyncEngine.start`
        // makes them, stopping drops them; a journal that syncs keeps them, no longer asking
        // each time whether it syncs.
        Migration("captureOnlyWhileSyncing") { database in try SyncEngine.remakeCaptureTriggers(database) },
        // 20: the capture triggers of a journal that syncs made anew, shorter: a record already
        // named is left by an upsert's DO NOTHING, not a subquery's WHERE NOT EXISTS
        // (`ExportTable.captureTriggers`), parsed faster whenever the journal is opened.
        Migration("shorterCaptureTriggers") { database in try SyncEngine.remakeCaptureTriggers(database) },
    ]

    /// The migration after which a config file's plan is adopted (`adopt`).
    static let legacyPlanMigration = "legacyPlan"

    /// A reading plan as versions before the journal kept it: in the config file.
    public struct LegacyPlan: Equatable, Sendable {
        public let id: String
        /// Day 1's date (`plan_start`); nil means `today`.
        public let start: LocalDate?
        /// The local date and instant of the move (the run's start and its created time).
        public let today: LocalDate
        public let now: Instant

        public init(id: String, start: LocalDate?, today: LocalDate, now: Instant) {
            self.id = id
            self.start = start
            self.today = today
            self.now = now
        }
    }

    /// True when opening this journal moved the config file's plan into it (say so once).
    public private(set) var adoptedLegacyPlan = false

    /// Opens the journal at `path`, creating it (and its folder, mode 0700) when missing,
    /// and migrating it to the current schema.
    ///
    /// - Parameter legacyPlan: the plan an older config file names, moved into the journal by
    ///   migration 5 when no plan was ever started here.
    public init(path: String, legacyPlan: LegacyPlan? = nil) throws(JournalError) {
        self.path = path
        self.legacyPlan = legacyPlan
        (database, isReadOnly) = try Journal.openForWriting(path: path)
        try migrateOpened()
    }

    /// Opens the journal at `path`, which exists, for a command that mostly reads it, so that
    /// reading changes nothing on disk: no log or index file made, nothing checkpointed. With
    /// no log beside the file (no connection open anywhere, none killed mid-write) it is read
    /// as immutable, and each read then checks that the file is as it was and no log appeared:
    /// else a writer came meanwhile, and the read is done again through a writer's connection.
    /// A journal with a log, or whose schema is not current (it must be migrated), is opened
    /// as `init(path:legacyPlan:)` opens it; so is this one at its first write.
    public init(openingForReading path: String, legacyPlan: LegacyPlan? = nil) throws(JournalError) {
        self.path = path
        self.legacyPlan = legacyPlan
        let folder = Files.parent(of: path)
        isReadOnly = access(folder, W_OK) != 0 || access(path, W_OK) != 0
        if let lock = ReadingLock(path), !Files.exists(path + "-wal"), let identity = Files.identity(path),
           let reader = try? Database(path: path, mode: .immutable),
           let version = try? reader.prepare("PRAGMA user_version"), (try? version.step()) == true, version.int(0) == Journal.migrations.count,
           (try? reader.prepare("SELECT count(*) FROM sqlite_schema").step()) == true {
            // Pages read through a mapping of the file (up to 1 GiB), not copied by a pread
            // each: a list in Bible order visits the table's pages out of their order, and with
            // a million records each row it printed cost a system call (half of `note list`).
            // A writer's change meanwhile is seen as through a pread, and the read's check sees
            // it; the file never shrinks (no auto-vacuum, no VACUUM), so no mapped page goes away.
            try? reader.execute("PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 1073741824")
            database = reader
            readingUnchanged = identity
            readingLock = lock
            return
        }
        (database, isReadOnly) = try Journal.openForWriting(path: path)
        try migrateOpened()
    }

    deinit {
        // A writer that closed while this one read kept its log (it may not checkpoint under the
        // reading lock): checkpointed now, by a connection opened and closed, so that
        // journal.sqlite alone is complete whenever no manna runs.
        if readingUnchanged != nil, Files.exists(path + "-wal") {
            readingLock = nil
            _ = try? Journal.openForWriting(path: path)
        }
    }

    /// The writer's connection in place of a reader's (see `init(openingForReading:)`).
    private func becomeWriter() throws(JournalError) {
        guard readingUnchanged != nil else { return }
        readingLock = nil
        (database, isReadOnly) = try Journal.openForWriting(path: path)
        readingUnchanged = nil
        try migrateOpened()
    }

    /// Whether a read through the immutable connection read what the file holds: the file is as
    /// it was at the open, and no log is beside it (a writer changes the file only through one).
    private var readUnchanged: Bool {
        guard let identity = readingUnchanged else { return true }
        return !Files.exists(path + "-wal") && Files.identity(path) == identity
    }

    /// Opens (creating when missing) the journal for writing, or read-only when this process
    /// cannot write it; in WAL mode. Not migrated yet.
    private static func openForWriting(path: String) throws(JournalError) -> (Database, isReadOnly: Bool) {
        let folder = Files.parent(of: path)
        do { try Files.makeDirectories(folder, mode: 0o700) } catch { throw .unwritable(path: path, reason: error.reason) }
        let existed = Files.exists(path)
        // The file is created 0600 before SQLite opens it, so it is never readable by others.
        if !existed {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 { close(descriptor) } else if errno != EEXIST {
                throw .unwritable(path: path, reason: String(cString: strerror(errno)))
            }
        }
        // A journal this process cannot write (its folder or file read-only, a read-only mount)
        // is opened read-only, so that every command that only reads works; one that writes
        // fails at its first write with one line (`journalError`).
        let isReadOnly = existed && (access(folder, W_OK) != 0 || access(path, W_OK) != 0)
        do {
            let database = try Database(path: path, mode: isReadOnly ? Journal.readOnlyMode(path: path, folder: folder) : .readWrite)
            try database.execute("PRAGMA busy_timeout = 10000")
            // Reading the schema fails with SQLITE_NOTADB or SQLITE_CORRUPT on a file that is not a
            // database or is cut short; a full integrity check per tick would cost too much.
            _ = try database.prepare("SELECT count(*) FROM sqlite_schema").step()
            if !isReadOnly { try switchToWAL(database) }
            // NORMAL in WAL mode: a commit is durable when Manna is killed (the log is in the
            // kernel's hands), only a power cut can lose the newest; and commits need no fsync.
            // Sorts (a verse's 16,000 notes in order) in memory, not in a temporary file.
            try database.execute("PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY")
            // The log is checkpointed into the file when the last connection closes (SQLite's
            // default), so journal.sqlite alone is complete whenever no manna runs: a backup
            // that copies just that file loses nothing. Keeping the log would save ~0.6 ms.
            return (database, isReadOnly)
        } catch {
            throw openingError(error, path: path)
        }
    }

    /// Migrates the connection just opened for writing to the current schema.
    private func migrateOpened() throws(JournalError) {
        do { try migrate(legacyPlan: legacyPlan) } catch { throw Journal.openingError(error, path: path) }
    }

    private static func openingError(_ error: any Error, path: String) -> JournalError {
        switch error {
        case let error as JournalError: return error
        case let error as SQLiteError: return error.isCorruption ? .damaged(path: path) : .unwritable(path: path, reason: error.message)
        default: return .unwritable(path: path, reason: "\(error)")
        }
    }

    /// True when this process cannot write the journal: it was opened read-only.
    public private(set) var isReadOnly: Bool
    static let readOnlyReason = "it is read-only (its folder, its file or its file system), and this command writes to it"

    /// How SQLite can read a WAL journal it may not write. With its log (`-wal`, and `-shm`
    /// beside it) there, or a folder it may create them in, as any reader, read-only. With
    /// neither, SQLite can read it only as immutable (sqlite.org/wal.html, "Read-Only
    /// Databases"): and it is, since no one who could change it could without a log there. A log
    /// left by a killed writer is read, never skipped (immutable would skip it).
    private static func readOnlyMode(path: String, folder: String) -> Database.Mode {
        Files.exists(path + "-wal") || access(folder, W_OK) == 0 ? .readOnly : .immutable
    }

    public var schemaVersion: Int {
        guard let statement = try? database.prepare("PRAGMA user_version"), (try? statement.step()) == true else { return 0 }
        return statement.int(0)
    }

    /// Puts the journal in WAL mode. Switching takes an exclusive lock on top of a shared one,
    /// for which SQLite does not wait (two connections doing it at once would deadlock), so
    /// when several ticks create the journal at once the losers get SQLITE_BUSY: they wait and
    /// try again. The mode is kept in the file, so after the first switch this only reads it.
    private static func switchToWAL(_ database: Database) throws(SQLiteError) {
        var attempts = 0
        while true {
            do {
                try database.execute("PRAGMA journal_mode = WAL")
                return
            } catch {
                attempts += 1
                guard error.isBusy, attempts < 500 else { throw error }
                usleep(20_000)
            }
        }
    }

    private func migrate(legacyPlan: LegacyPlan?) throws {
        let version = schemaVersion
        guard version <= Journal.migrations.count else { throw JournalError.tooNew(path: path, version: version) }
        guard version < Journal.migrations.count else { return }
        guard !isReadOnly else {
            throw JournalError.unwritable(path: path, reason: "it is read-only, and at schema version \(version) it needs upgrading to \(Journal.migrations.count) first: make it writable for one manna command")
        }
        try database.transaction {
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let current = schemaVersion
            for (index, migration) in Journal.migrations.enumerated().dropFirst(current) {
                try migration.migrate(database)
                if migration.name == Journal.legacyPlanMigration, let legacyPlan { try adopt(legacyPlan) }
                try database.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Starts the config file's plan here, unless a plan was ever started in this journal.
    private func adopt(_ legacy: LegacyPlan) throws {
        guard try !database.prepare("SELECT 1 FROM plan_runs LIMIT 1").step() else { return }
        let insert = try database.prepare("""
            INSERT INTO plan_runs (uuid, plan_id, started_on, schedule_start, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?5)
            """)
        try insert.bind(Journal.newUUID(), at: 1)
        try insert.bind(legacy.id, at: 2)
        try insert.bind(legacy.today.description, at: 3)
        try insert.bind((legacy.start ?? legacy.today).description, at: 4)
        try insert.bind(legacy.now, at: 5)
        try insert.run()
        adoptedLegacyPlan = true
    }

    // MARK: Running statements

    /// Runs `body`, reporting SQLite's failures as the journal's: a damaged file as `.damaged`
    /// (with how to recover), anything else as `.unwritable`. Other errors pass through.
    ///
    /// Through a reader's immutable connection, a read that a writer may have overlapped (the
    /// file changed, or a log appeared) is read again through a writer's connection: what it
    /// read, or the damage it met, may be a page of each.
    func run<T>(_ body: () throws -> T) throws -> T {
        guard readingUnchanged != nil else {
            do { return try body() } catch let error as SQLiteError { throw journalError(error) }
        }
        let result = Result { try body() }
        // A body that wrote is a writer's now (`write`): what it read before, outside its
        // transaction, is as current as any read outside a transaction is.
        if readUnchanged {
            do { return try result.get() } catch let error as SQLiteError { throw journalError(error) }
        }
        try becomeWriter()
        return try run(body)
    }

    /// Runs `body` in one transaction: all of it is committed, or none of it.
    func write<T>(_ body: () throws -> T) throws -> T {
        try becomeWriter()
        return try run { try database.transaction(body) }
    }

    func journalError(_ error: SQLiteError) -> JournalError {
        if error.isCorruption { return .damaged(path: path) }
        if error.isReadOnly { return .unwritable(path: path, reason: Journal.readOnlyReason) }
        return .unwritable(path: path, reason: error.message)
    }

    /// `run`, with every failure as the journal's (for operations whose only errors are the journal's).
    func reading<T>(_ body: () throws -> T) throws(JournalError) -> T {
        do { return try run(body) } catch { throw asJournalError(error) }
    }

    /// `write`, with every failure as the journal's.
    func writing<T>(_ body: () throws -> T) throws(JournalError) -> T {
        do { return try write(body) } catch { throw asJournalError(error) }
    }

    private func asJournalError(_ error: any Error) -> JournalError {
        switch error {
        case let error as JournalError: return error
        case let error as SQLiteError: return journalError(error)
        default: return .unwritable(path: path, reason: "\(error)")
        }
    }

    /// SQLite's full check of the file (`PRAGMA integrity_check`): `["ok"]`, or each problem.
    /// It reads every page, so it is for checks and tests, not for every command.
    public func integrityCheck() throws(JournalError) -> [String] {
        do {
            let statement = try database.prepare("PRAGMA integrity_check")
            var lines: [String] = []
            while try statement.step() { lines.append(statement.string(0)) }
            return lines
        } catch {
            throw journalError(error)
        }
    }
}
