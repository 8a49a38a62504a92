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
        /// What was checked, in English: the stable `check` of the JSON.
        let subject: String
        /// The same in the reader's language, for the text.
        let label: String
        let detail: String
    }

    /// Prints every finding (a failed check never stops the others); exits 69 if any failed.
    static func run(_ arguments: ParsedArguments, _ context: Context) throws {
        guard arguments.positionals.isEmpty else { throw Failure.usage(tr("doctor takes no arguments")) }
        let findings = checks(context, now: { try context.now(arguments) })
        if arguments.has(Options.json) {
            context.json(.array(findings.map { .object([("check", .string($0.subject)), ("ok", .bool($0.ok)), ("detail", .string($0.detail))]) }))
        } else {
            for finding in findings {
                context.stdout.line((finding.ok ? tr("ok").padding(to: 6) : tr("FAIL").padding(to: 6)) + finding.label + ": " + finding.detail)
            }
        }
        let failed = findings.filter { !$0.ok }.count
        if failed > 0 {
            throw Failure.unavailable(trn("{failed} of {count} check failed", "{failed} of {count} checks failed", count: findings.count, ("failed", failed)))
        }
    }

    static func checks(_ context: Context, now: () throws -> Instant) -> [Finding] {
        var findings: [Finding] = []
        func check(_ subject: String, _ label: String, _ body: () throws -> String) {
            do {
                findings.append(Finding(ok: true, subject: subject, label: label, detail: try body()))
            } catch let error as UserError {
                findings.append(Finding(ok: false, subject: subject, label: label, detail: error.message))
            } catch {
                findings.append(Finding(ok: false, subject: subject, label: label, detail: "\(error)"))
            }
        }
        check("text database", tr("text database")) {
            let opened = try context.openTextDatabase()
            let counts = try opened.translations.map { "\($0.code) \(try opened.verseCount(of: $0))" }
            return opened.path + " (" + tr("{counts} verses", ("counts", counts.joined(separator: ", "))) + ")"
        }
        // Doctor says what the config ignores as its own FAIL line, not as warnings on stderr.
        context.saysIgnoredConfig = false
        check("config", tr("config")) {
            let ignored = context.configWithEveryIgnoredLine().ignored
            guard ignored.isEmpty else {
                let what = ignored.map(\.error.message).joined(separator: "; ")
                throw Failure.data(what + trn(": that line is ignored, the defaults standing in; fix or remove it ('manna config unset KEY', or edit the file)",
                                              ": those lines are ignored, the defaults standing in; fix or remove it ('manna config unset KEY', or edit the file)", count: ignored.count))
            }
            return Files.exists(context.paths.config) ? context.paths.config : tr("no file, so the defaults ({path})", ("path", context.paths.config))
        }
        var zone: Zone?
        check("time zone", tr("time zone")) {
            zone = try context.zone()
            return zone!.identifier
        }
        check("journal", tr("journal")) {
            let path = context.paths.journal
            guard let journal = try context.existingJournal() else { return tr("not created yet: the first tick creates {path}", ("path", path)) }
            return tr("{path}, schema version {version}", ("path", path), ("version", journal.schemaVersion))
        }
        check("session bus", tr("session bus")) { try SessionBus.address(environment: context.environment, userID: context.userID) }
        check("notification server", tr("notification server")) {
            let server = try context.notifier.probe()
            return tr("{name} {version} by {vendor}, spec {spec}, capabilities: {capabilities}", ("name", server.name), ("version", server.version),
                      ("vendor", server.vendor), ("spec", server.specVersion), ("capabilities", server.capabilities.joined(separator: " ")))
        }
        check("scheduler", tr("scheduler")) { try schedulerStatus(context) }
        check("last tick", tr("last tick")) {
            // When a tick really ran (the real clock, whatever moment it replayed), against the
            // real clock: doctor's --now replays the timeline, not the scheduler.
            let now = context.clock.now()
            guard let last = Files.modified(context.paths.lastTick) else {
                throw Failure.unavailable(tr("no tick has run yet: once the scheduler above runs, one runs every minute"))
            }
            let when = try context.zone().local(last).iso8601
            guard last <= now + 60 else {
                throw Failure.unavailable(tr("the last tick is stamped {when}, in the future (the clock was set back): run 'manna tick' to stamp it now", ("when", when)))
            }
            let minutes = (now - last) / 60
            // A minute's timer; a machine just woken catches up at once, so ten is plenty.
            guard minutes <= 10 else {
                throw Failure.unavailable(tr("the last tick ran at {when}, {minutes} minutes ago: nothing runs 'manna tick' now (see the scheduler line above)",
                                             ("when", when), ("minutes", minutes)))
            }
            return tr("at {when}", ("when", when))
        }
        check("reading plan", tr("reading plan")) {
            var names: [String] = []
            for running in try context.runningPlans(database: context.openTextDatabase()) {
                switch running {
                case .broken(_, let reason): throw Failure.data(reason)
                case .loaded(let plan, _): names.append("\(plan.name) (\(plan.id))")
                }
            }
            return names.isEmpty ? tr("none running") : names.joined(separator: ", ")
        }
        check("notifications", tr("notifications")) {
            guard let journal = try context.existingJournal(), let failure = try journal.notifyFailure() else {
                return tr("no tick has failed to show one since the last was shown")
            }
            let when = (try? context.zone()).map { $0.local(failure.instant).iso8601 } ?? "\(failure.instant)"
            throw Failure.unavailable(tr("a tick could not show one at {when}: {reason}; ", ("when", when), ("reason", failure.reason))
                + NotifyError.whatHappensAfter(mayHaveBeenShown: failure.mayHaveBeenShown))
        }
        check("sync", tr("sync")) { try Syncing.health(context) }
        check("timeline", tr("timeline")) {
            let path = context.paths.timeline
            guard let zone else { throw Failure.usage(tr("no time zone to check it against")) }
            guard let text = try Files.readText(path) else { throw Failure.unavailable(tr("{path} is missing: run 'manna timeline' (each tick rewrites it)", ("path", path))) }
            guard ShownDay.fromTimeline(text, now: try now(), zone: zone.identifier) != nil else {
                throw Failure.unavailable(tr("{path} does not cover now in {zone}: run 'manna timeline'; if it goes stale again, the timer is not running", ("path", path), ("zone", zone.identifier)))
            }
            return tr("{path} covers today", ("path", path))
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
