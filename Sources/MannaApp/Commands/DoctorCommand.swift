// manna doctor: checks everything Manna needs, one line each: ok, or what is wrong and what to do.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

enum DoctorCommand {
    static let spec = CommandSpec(
        name: "doctor",
        usage: "manna doctor [--json]",
        abstract: "Check the text database, config, time zone, bus, notification server, timer and timeline",
        options: [Options.now.help("check the timeline as if it were this moment, like 2026-03-08T07:00 (for replaying)"), Options.json.help("print the checks as JSON")],
        run: run)

    /// One check's verdict.
    struct Finding {
        let ok: Bool
        let subject: String
        let detail: String
    }

    /// Prints every finding (a failed check never stops the others); exits 69 if any failed.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage("doctor takes no arguments") }
        let findings = checks(context, now: { try context.now(arguments) })
        if arguments.has(Options.json) {
            context.json(.array(findings.map { .object([("check", .string($0.subject)), ("ok", .bool($0.ok)), ("detail", .string($0.detail))]) }))
        } else {
            for finding in findings {
                context.stdout.line((finding.ok ? "ok    " : "FAIL  ") + finding.subject + ": " + finding.detail)
            }
        }
        let failed = findings.filter { !$0.ok }.count
        if failed > 0 {
            throw Failure.unavailable("\(failed) of \(findings.count) checks failed")
        }
    }

    static func checks(_ context: Context, now: () throws -> Instant) -> [Finding] {
        var findings: [Finding] = []
        func check(_ subject: String, _ body: () throws -> String) {
            do {
                findings.append(Finding(ok: true, subject: subject, detail: try body()))
            } catch let error as UserError {
                findings.append(Finding(ok: false, subject: subject, detail: error.message))
            } catch {
                findings.append(Finding(ok: false, subject: subject, detail: "\(error)"))
            }
        }
        check("text database") {
            let opened = try context.openTextDatabase()
            let counts = try opened.translations.map { "\($0.code) \(try opened.verseCount(of: $0))" }
            return opened.path + " (" + counts.joined(separator: ", ") + " verses)"
        }
        // Doctor says what the config ignores as its own FAIL line, not as warnings on stderr.
        context.saysIgnoredConfig = false
        check("config") {
            let ignored = context.configWithEveryIgnoredLine().ignored
            guard ignored.isEmpty else {
                let what = ignored.map(\.error.message).joined(separator: "; ")
                throw Failure.data(what + (ignored.count == 1 ? ": that line is" : ": those lines are")
                    + " ignored, the defaults standing in; fix or remove it ('manna config unset KEY', or edit the file)")
            }
            return Files.exists(context.paths.config) ? context.paths.config : "no file, so the defaults (\(context.paths.config))"
        }
        var zone: Zone?
        check("time zone") {
            zone = try context.zone()
            return zone!.identifier
        }
        check("journal") {
            let path = context.paths.journal
            guard let journal = try context.existingJournal() else { return "not created yet: the first tick creates \(path)" }
            return "\(path), schema version \(journal.schemaVersion)"
        }
        check("session bus") { try SessionBus.address(environment: context.environment, userID: context.userID) }
        check("notification server") {
            let server = try context.notifier.probe()
            return "\(server.name) \(server.version) by \(server.vendor), spec \(server.specVersion), capabilities: "
                + server.capabilities.joined(separator: " ")
        }
        check("scheduler") { try schedulerStatus(context) }
        check("last tick") {
            // When a tick really ran (the real clock, whatever moment it replayed), against the
            // real clock: doctor's --now replays the timeline, not the scheduler.
            let now = context.clock.now()
            guard let last = Files.modified(context.paths.lastTick) else {
                throw Failure.unavailable("no tick has run yet: once the scheduler above runs, one runs every minute")
            }
            let when = try context.zone().local(last).iso8601
            guard last <= now + 60 else {
                throw Failure.unavailable("the last tick is stamped \(when), in the future (the clock was set back): run 'manna tick' to stamp it now")
            }
            let minutes = (now - last) / 60
            // A minute's timer; a machine just woken catches up at once, so ten is plenty.
            guard minutes <= 10 else {
                throw Failure.unavailable("the last tick ran at \(when), \(minutes) minutes ago: nothing runs 'manna tick' now "
                    + "(see the scheduler line above)")
            }
            return "at \(when)"
        }
        check("reading plan") {
            var names: [String] = []
            for running in try context.runningPlans(database: context.openTextDatabase()) {
                switch running {
                case .broken(_, let reason): throw Failure.data(reason)
                case .loaded(let plan, _): names.append("\(plan.name) (\(plan.id))")
                }
            }
            return names.isEmpty ? "none running" : names.joined(separator: ", ")
        }
        check("notifications") {
            guard let journal = try context.existingJournal(), let failure = try journal.notifyFailure() else {
                return "no tick has failed to show one since the last was shown"
            }
            let when = (try? context.zone()).map { $0.local(failure.instant).iso8601 } ?? "\(failure.instant)"
            throw Failure.unavailable("a tick could not show one at \(when): \(failure.reason); "
                + NotifyError.whatHappensAfter(mayHaveBeenShown: failure.mayHaveBeenShown))
        }
        check("sync") { try Syncing.health(context) }
        check("timeline") {
            let path = context.paths.timeline
            guard let zone else { throw Failure.usage("no time zone to check it against") }
            guard let text = try Files.readText(path) else { throw Failure.unavailable("\(path) is missing: run 'manna timeline' (each tick rewrites it)") }
            guard ShownDay.fromTimeline(text, now: try now(), zone: zone.identifier) != nil else {
                throw Failure.unavailable("\(path) does not cover now in \(zone.identifier): run 'manna timeline'; if it goes stale again, the timer is not running")
            }
            return path + " covers today"
        }
        return findings
    }

    /// Whether something will run `manna tick` here: the facts observed for how this manna was
    /// installed, judged by `SchedulerFacts.verdict`.
    static func schedulerStatus(_ context: Context) throws -> String {
        let installer = try Installing.installer(prefix: nil, context)
        let verdict = installer.schedulerFacts(installation: Installing.installation(context)).verdict
        guard verdict.ok else { throw Failure.unavailable(verdict.detail) }
        return verdict.detail
    }
}
