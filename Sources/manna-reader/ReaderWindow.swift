// The reader window: a header bar (back, forward, the sidebar, go to a passage, the
// translation, a second translation beside it, the menu), the books and chapters in a sidebar
// that folds away in a narrow window (AdwFlap), and the chapter as verses with their numbers,
// selectable: one text, or with a translation beside it, each verse beside its own (under it
// in a narrow window). Under the chapter, the marks: the verses selected are highlighted,
// bookmarked or given a note, in the journal, as `manna highlight`, `bookmark` and `note` do;
// a delete says so in a toast with Undo. What it shows and the
// rules of moving are ReaderModel's; this draws the model and hands it what the user did.
import CAdw
import MannaApp
import MannaKit

final class ReaderWindow {
    let window: Object
    private let model: ReaderModel
    private let toasts: Object
    private let entry: Object
    private let translations: Object
    /// The translation beside the first: "None", then the database's.
    private let besideList: Object
    /// The chapter with a translation beside it: a row per verse, or two in a narrow window.
    private let parallel: Object
    /// Keeps the chapter's column to a readable width: wider with two translations.
    private let clamp: Object
    private let books: Object
    private let chapters: Object
    private let heading: Object
    private let text: Object
    private let scroller: Object
    /// The two views: today's verse, and the chapter.
    private let views: Object
    private let todayReference: Object
    private let todayText: Object
    private let flap: Object
    private let backAction: Object
    private let forwardAction: Object
    /// The book whose chapters the sidebar lists, and their buttons (the sidebar owns them).
    private var listedBook = 0
    private var chapterButtons: [UnsafeMutablePointer<GtkWidget>] = []
    /// Set while the window itself moves the translation switcher, so that the change it
    /// notifies is not taken for the user's.
    private var settingTranslation = false
    /// The chapter shown: its markup and where each verse is in its text (for a selection).
    private var chapterText: ChapterText?
    /// The place last drawn: the chapter is scrolled to its top only when the place changes,
    /// not when a mark is made.
    private var shownPlace: ReaderPlace?
    /// The buttons that mark the verses selected (shown with the chapter as one text).
    private let markBar: Object
    private let undoAction: Object
    /// What the last delete took away, while its toast offers Undo.
    private var undoable: DeletedMarks?
    /// Search: the query, the total, the results.
    private let searchEntry: Object
    private let searchTotal: Object
    private let searchResults: Object
    /// bench/reader's measure of a move's main-loop time (MANNA_READER_TIMINGS), else nil.
    private var timer: FrameTimer?

    init(application: Object, model: ReaderModel, timings: String? = nil) {
        self.model = model
        window = Object(adw_application_window_new(application.cast()))
        gtk_window_set_default_size(window.cast(), 960, 720)

        entry = Object(gtk_entry_new())
        gtk_entry_set_placeholder_text(entry.cast(), "Go to a passage, like John 3:16")
        // Wide where there is room, narrow where there is not (a phone).
        gtk_editable_set_width_chars(entry.cast(), 8)
        gtk_editable_set_max_width_chars(entry.cast(), 28)
        label(entry.cast(), "Go to passage")
        translations = Object(withCStrings(model.database.translations.map(\.code)) { gtk_drop_down_new_from_strings($0) })
        label(translations.cast(), "Translation")
        besideList = Object(withCStrings(["None"] + model.database.translations.map(\.code)) { gtk_drop_down_new_from_strings($0) })
        label(besideList.cast(), "Beside")
        gtk_widget_set_tooltip_text(besideList.cast(), "A second translation beside the first")
        parallel = Object(gtk_grid_new())
        gtk_grid_set_column_homogeneous(parallel.cast(), 1)
        gtk_grid_set_column_spacing(parallel.cast(), 24)
        gtk_grid_set_row_spacing(parallel.cast(), 6)
        label(parallel.cast(), "Verses side by side")
        clamp = Object(adw_clamp_new())
        heading = Object(gtk_label_new(""))
        gtk_widget_add_css_class(heading.cast(), "title-1")
        gtk_label_set_xalign(heading.cast(), 0)
        gtk_label_set_wrap(heading.cast(), 1)
        text = Object(gtk_label_new(""))
        gtk_label_set_wrap(text.cast(), 1)
        gtk_label_set_selectable(text.cast(), 1)
        gtk_label_set_xalign(text.cast(), 0)
        gtk_label_set_yalign(text.cast(), 0)
        gtk_widget_add_css_class(text.cast(), "body")
        books = Object(gtk_list_box_new())
        gtk_widget_add_css_class(books.cast(), "navigation-sidebar")
        label(books.cast(), "Books")
        chapters = Object(gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(chapters.cast(), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(chapters.cast(), 1)
        gtk_flow_box_set_max_children_per_line(chapters.cast(), 6)
        label(chapters.cast(), "Chapters")
        scroller = Object(gtk_scrolled_window_new())
        views = Object(adw_view_stack_new())
        todayReference = Object(gtk_label_new(""))
        gtk_widget_add_css_class(todayReference.cast(), "title-2")
        todayText = Object(gtk_label_new(""))
        gtk_label_set_wrap(todayText.cast(), 1)
        gtk_label_set_selectable(todayText.cast(), 1)
        gtk_label_set_justify(todayText.cast(), GTK_JUSTIFY_CENTER)
        gtk_widget_add_css_class(todayText.cast(), "title-3")
        flap = Object(adw_flap_new())
        toasts = Object(adw_toast_overlay_new())
        searchEntry = Object(gtk_search_entry_new())
        label(searchEntry.cast(), "Search")
        searchTotal = Object(gtk_label_new(""))
        gtk_label_set_xalign(searchTotal.cast(), 0)
        gtk_label_set_wrap(searchTotal.cast(), 1)
        gtk_widget_add_css_class(searchTotal.cast(), "dim-label")
        searchResults = Object(gtk_list_box_new())
        gtk_widget_add_css_class(searchResults.cast(), "boxed-list")
        gtk_list_box_set_selection_mode(searchResults.cast(), GTK_SELECTION_NONE)
        label(searchResults.cast(), "Search results")
        markBar = Object(gtk_action_bar_new())
        undoAction = Object(g_simple_action_new("undo", nil), owned: true)
        backAction = Object(g_simple_action_new("back", nil), owned: true)
        forwardAction = Object(g_simple_action_new("forward", nil), owned: true)

        // Widgets made here and not kept are raw pointers: their parent takes the floating
        // reference, as in C; a Swift Object could be released between `cast()` and the call.
        for book in Canon.books {
            let row = gtk_label_new(book.name(in: model.translation.language))!
            gtk_label_set_xalign(cast(row), 0)
            gtk_list_box_append(books.cast(), row)
        }
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(content), headerBar())
        adw_flap_set_flap(flap.cast(), sidebar())
        adw_flap_set_separator(flap.cast(), gtk_separator_new(GTK_ORIENTATION_VERTICAL))
        adw_view_stack_page_set_icon_name(adw_view_stack_add_titled(views.cast(), today(), "today", "Today"), "weather-clear-symbolic")
        adw_view_stack_page_set_icon_name(adw_view_stack_add_titled(views.cast(), page(), "read", "Read"), "accessories-dictionary-symbolic")
        adw_view_stack_page_set_icon_name(adw_view_stack_add_titled(views.cast(), searchPage(), "search", "Search"), "system-search-symbolic")
        adw_view_stack_set_visible_child_name(views.cast(), "read")
        adw_flap_set_content(flap.cast(), views.cast())
        gtk_widget_set_vexpand(flap.cast(), 1)
        gtk_box_append(cast(content), flap.cast())
        adw_toast_overlay_set_child(toasts.cast(), content)
        adw_application_window_set_content(window.cast(), toasts.cast())
        ShortcutsWindow.attach(to: window)
        // The highlight buttons in the colours the verses take.
        let css = HighlightColor.allCases.map {
            ".highlight-\($0.rawValue) { background: \(ChapterMarkup.background($0)); color: #000000; }"
        }.joined(separator: "\n")
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gtk_widget_get_display(window.cast()), OpaquePointer(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(UnsafeMutableRawPointer(provider))
        // The go-to entry has the focus first: the chapter's selectable text would otherwise
        // take it, and show itself all selected.
        gtk_window_set_focus(window.cast(), entry.cast())

        connectSignals()
        show()
        timer = FrameTimer(path: timings, widget: window.cast())
    }

    // MARK: - What the user does

    /// Goes to `typed` ("John 3", "Ps 23 WEB"), or tells why it cannot (a toast) and returns the
    /// error for a command line to report.
    @discardableResult
    func go(to typed: String) -> (message: String, status: Int32)? {
        let before = model.place.translation
        let move = { [unowned self] in
            try model.go(to: typed)
            showChapter()
        }
        do {
            if let timer {
                // A move in the same translation turns a chapter; one to another switches translation.
                try timer.measure(move) { model.place.translation == before ? "turn" : "switch" }
            } else {
                try move()
            }
            return nil
        } catch {
            let report = ReaderModel.report(error)
            toast(report.message)
            return report
        }
    }

    /// Puts the cursor in the go-to entry, its text selected (Ctrl+L).
    func focusEntry() {
        gtk_widget_grab_focus(entry.cast())
        gtk_editable_select_region(entry.cast(), 0, -1)
    }

    /// Shows Search with the cursor in its entry (Ctrl+F).
    func focusSearch() {
        adw_view_stack_set_visible_child_name(views.cast(), "search")
        gtk_widget_grab_focus(searchEntry.cast())
    }

    func toggleSidebar() {
        adw_flap_set_reveal_flap(flap.cast(), adw_flap_get_reveal_flap(flap.cast()) == 0 ? 1 : 0)
    }

    func present() { gtk_window_present(window.cast()) }

    // MARK: - Drawing the model

    /// Shows the model's chapter in the Read view.
    private func showChapter() {
        adw_view_stack_set_visible_child_name(views.cast(), "read")
        show()
    }

    /// Shows the model's chapter, translation and history, and today's verse in the translation.
    private func show() {
        let verses: [PassageVerse]
        let today: DailyVerse
        do { (verses, today) = (try model.verses(), try model.verseOfTheDay()) } catch {
            toast(ReaderModel.report(error).message)
            return
        }
        gtk_label_set_text(todayReference.cast(), "\(today.label) (\(today.translation))")
        gtk_label_set_text(todayText.cast(), today.text)
        gtk_window_set_title(window.cast(), "\(model.title) (\(model.place.translation)\(model.beside.map { ", " + $0.code } ?? "")) – Manna")
        gtk_label_set_text(heading.cast(), model.title)
        let marks: PassageMarks
        do { marks = try model.marks() } catch {
            // The text is still worth showing: the journal's trouble is said, not the chapter lost.
            toast(ReaderModel.report(error).message)
            marks = PassageMarks()
        }
        let chapter = ChapterMarkup.chapter(verses, language: model.translation.language, marks: marks)
        chapterText = chapter
        gtk_label_set_markup(text.cast(), chapter.markup)
        showBeside(marks: marks)
        if shownPlace != model.place {
            gtk_adjustment_set_value(gtk_scrolled_window_get_vadjustment(scroller.cast()), 0)
            shownPlace = model.place
        }
        if let index = model.database.translations.firstIndex(where: { $0.code == model.place.translation }),
           Int(gtk_drop_down_get_selected(translations.cast())) != index {
            settingTranslation = true
            gtk_drop_down_set_selected(translations.cast(), guint(index))
            settingTranslation = false
        }
        listChapters(of: model.place.verse.book)
        if model.place.verse.book == listedBook {
            for (index, button) in chapterButtons.enumerated() {
                if index + 1 == model.place.verse.chapter {
                    gtk_widget_add_css_class(button, "suggested-action")
                } else {
                    gtk_widget_remove_css_class(button, "suggested-action")
                }
            }
        }
        gtk_list_box_select_row(books.cast(), gtk_list_box_get_row_at_index(books.cast(), Int32(model.place.verse.book - 1)))
        g_simple_action_set_enabled(backAction.cast(), model.canGoBack ? 1 : 0)
        g_simple_action_set_enabled(forwardAction.cast(), model.canGoForward ? 1 : 0)
    }

    /// The translation beside the first, verse by verse, or only the one text. Side by side in
    /// a wide window; in a narrow one (where the sidebar folds), each verse's second under it.
    private func showBeside(marks: PassageMarks) {
        while let child = gtk_widget_get_first_child(parallel.cast()) {
            gtk_grid_remove(parallel.cast(), child)
        }
        let pairs: [ParallelVerse]?
        do { pairs = try model.parallelVerses() } catch {
            toast(ReaderModel.report(error).message)
            pairs = nil
        }
        gtk_widget_set_visible(text.cast(), pairs == nil ? 1 : 0)
        gtk_widget_set_visible(parallel.cast(), pairs == nil ? 0 : 1)
        // Marks are made on the chapter as one text, whose selection names its verses.
        gtk_widget_set_visible(markBar.cast(), pairs == nil ? 1 : 0)
        let stacked = adw_flap_get_folded(flap.cast()) != 0
        adw_clamp_set_maximum_size(clamp.cast(), pairs == nil || stacked ? 720 : 1200)
        guard let pairs, let beside = model.beside else { return }
        for (row, pair) in pairs.enumerated() {
            // The first translation's verses with their highlight and bookmark (the notes' text
            // is under the chapter as one text).
            let first = pair.first.map { marks[$0.id] } ?? VerseMarks()
            let shown = VerseMarks(highlight: first.highlight, bookmarked: first.bookmarked)
            let sides = [(pair.first, model.translation.language, shown), (pair.second, beside.language, VerseMarks())]
            for (column, (verse, language, verseMarks)) in sides.enumerated() {
                let line = gtk_label_new(nil)!
                if let verse { gtk_label_set_markup(cast(line), ChapterMarkup.line(verse, language: language, marks: verseMarks).markup) }
                gtk_label_set_wrap(cast(line), 1)
                gtk_label_set_selectable(cast(line), 1)
                gtk_label_set_xalign(cast(line), 0)
                gtk_label_set_yalign(cast(line), 0)
                gtk_widget_set_hexpand(line, 1)
                gtk_widget_add_css_class(line, "body")
                if column == 1 && stacked {
                    gtk_widget_add_css_class(line, "dim-label")
                    gtk_widget_set_margin_bottom(line, 6)
                }
                gtk_grid_attach(parallel.cast(), line, Int32(stacked ? 0 : column), Int32(stacked ? 2 * row + column : row), 1, 1)
            }
        }
    }

    /// The chapter buttons of `book` (1-66) in the sidebar.
    private func listChapters(of book: Int) {
        guard book != listedBook, let chosen = Canon.book(number: book) else { return }
        listedBook = book
        while let child = gtk_widget_get_first_child(chapters.cast()) {
            gtk_flow_box_remove(chapters.cast(), child)
        }
        chapterButtons = []
        for chapter in 1...chosen.chapterCount {
            let button = gtk_button_new_with_label(String(chapter))!
            label(button, "\(chosen.name(in: model.translation.language)) \(chapter)")
            Object.on(button, "clicked") { [unowned self] in
                model.go(book: book, chapter: chapter)
                showChapter()
            }
            gtk_flow_box_append(chapters.cast(), button)
            chapterButtons.append(button)
        }
    }

    /// The results of what the search entry holds, as it is typed: the best 50 with their
    /// matches highlighted, and how many verses match in all.
    private func search() {
        while let row = gtk_widget_get_first_child(searchResults.cast()) {
            gtk_list_box_remove(searchResults.cast(), row)
        }
        let typed = String(cString: gtk_editable_get_text(searchEntry.cast()))
        let results: SearchResults?
        do { results = try model.search(typed) } catch {
            gtk_label_set_text(searchTotal.cast(), ReaderModel.report(error).message)
            return
        }
        guard let results else { return gtk_label_set_text(searchTotal.cast(), "") }
        let translation = model.translation
        let total = results.total == 1 ? "1 verse" : "\(results.total) verses"
        gtk_label_set_text(searchTotal.cast(), results.total == 0 ? "No verse of the \(translation.code) has that"
            : results.total > results.hits.count ? "\(total) in the \(translation.code); the best \(results.hits.count) here" : "\(total) in the \(translation.code)")
        // Each result a button (a click, Enter, or a screen reader's "click" opens it).
        for hit in results.hits {
            let line = gtk_label_new(nil)!
            gtk_label_set_markup(cast(line), ChapterMarkup.result(hit, language: translation.language))
            gtk_label_set_wrap(cast(line), 1)
            gtk_label_set_xalign(cast(line), 0)
            let button = gtk_button_new()!
            gtk_button_set_child(cast(button), line)
            gtk_widget_add_css_class(button, "flat")
            Object.on(button, "clicked") { [unowned self] in
                model.go(toVerse: hit.id)
                showChapter()
            }
            gtk_list_box_append(searchResults.cast(), button)
        }
    }

    private func toast(_ message: String) {
        adw_toast_overlay_add_toast(toasts.cast(), adw_toast_new(Markup.escaped(message)))
    }

    // MARK: - Marks

    /// The verses the chapter's selection reaches (the one at the cursor when nothing is
    /// selected), or nil, said in a toast, when there is no selection in the chapter.
    private func selectedVerses() -> [VerseID]? {
        var start: Int32 = 0
        var end: Int32 = 0
        // Without a selection, the verse at the cursor, once the chapter has been clicked or
        // reached by keyboard (before that its cursor is at the start, where the user is not).
        guard gtk_label_get_selection_bounds(text.cast(), &start, &end) != 0 || gtk_widget_has_focus(text.cast()) != 0,
              let verses = chapterText?.verses(selectedFrom: Int(start), to: Int(end)), !verses.isEmpty else {
            toast("Select the verses to mark in the chapter first")
            return nil
        }
        return verses
    }

    /// Runs a change of marks on the verses selected, then shows them; a delete's toast offers Undo.
    private func mark(_ change: ([VerseID]) throws -> DeletedMarks?) {
        guard let verses = selectedVerses() else { return }
        do {
            if let deleted = try change(verses) { offerUndo(deleted) }
        } catch {
            toast(ReaderModel.report(error).message)
        }
        show()
    }

    private func offerUndo(_ deleted: DeletedMarks) {
        undoable = deleted
        let undo = adw_toast_new(deleted.message)!
        adw_toast_set_button_label(undo, "Undo")
        adw_toast_set_action_name(undo, "win.undo")
        // Long enough to read, see what went and decide.
        adw_toast_set_timeout(undo, 10)
        adw_toast_overlay_add_toast(toasts.cast(), undo)
    }

    /// Asks for a note's text on `verses`: the first note found there is edited (and may be
    /// deleted), else a new one is written. `draft`: the text a save that failed was given,
    /// offered again so that nothing written is lost.
    private func editNote(on verses: [VerseID], draft: String? = nil) {
        let existing: Note?
        do { existing = try model.notes(on: verses).first } catch {
            toast(ReaderModel.report(error).message)
            return
        }
        let passage = Reference(VerseRange(first: verses.min()!, last: verses.max()!)).label(in: model.translation.language)
        let dialog = adw_message_dialog_new(window.cast(), existing == nil ? "Note on \(passage)" : "Edit the Note on \(passage)", nil)!
        let editor = gtk_text_view_new()!
        gtk_text_view_set_wrap_mode(cast(editor), GTK_WRAP_WORD_CHAR)
        label(editor, "Note")
        if let shown = draft ?? existing?.text { gtk_text_buffer_set_text(gtk_text_view_get_buffer(cast(editor)), shown, -1) }
        let frame = scrolled(editor)
        gtk_scrolled_window_set_min_content_height(cast(frame), 120)
        gtk_widget_add_css_class(frame, "card")
        adw_message_dialog_set_extra_child(cast(dialog), frame)
        adw_message_dialog_add_response(cast(dialog), "cancel", "Cancel")
        if existing != nil {
            adw_message_dialog_add_response(cast(dialog), "delete", "Delete")
            adw_message_dialog_set_response_appearance(cast(dialog), "delete", ADW_RESPONSE_DESTRUCTIVE)
        }
        adw_message_dialog_add_response(cast(dialog), "save", "Save")
        adw_message_dialog_set_response_appearance(cast(dialog), "save", ADW_RESPONSE_SUGGESTED)
        adw_message_dialog_set_default_response(cast(dialog), "save")
        adw_message_dialog_set_close_response(cast(dialog), "cancel")
        Object.on(dialog, "response", withArgument: { [unowned self] response in
            let chosen = response.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "cancel"
            var start = GtkTextIter()
            var end = GtkTextIter()
            let buffer = gtk_text_view_get_buffer(cast(editor))
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            let copy = gtk_text_buffer_get_text(buffer, &start, &end, 0)!
            let written = String(cString: copy)
            g_free(copy)
            do {
                switch chosen {
                case "save": try model.writeNote(written, on: verses, id: existing?.uuid)
                case "delete": if let existing { offerUndo(try model.deleteNote(id: existing.uuid)) }
                default: return 0
                }
            } catch {
                // What was written is not lost: the dialog closes, so the text goes into a new one.
                toast(ReaderModel.report(error).message)
                if chosen == "save" { editNote(on: verses, draft: written) }
                return 0
            }
            show()
            return 0
        })
        gtk_window_present(cast(dialog))
        gtk_widget_grab_focus(editor)
    }

    // MARK: - Building

    private func headerBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = adw_header_bar_new()!
        let sidebar = gtk_toggle_button_new()!
        gtk_button_set_icon_name(cast(sidebar), "sidebar-show-symbolic")
        label(sidebar, "Books and chapters")
        g_object_bind_property(flap.pointer, "reveal-flap", sidebar, "active", GBindingFlags(rawValue: G_BINDING_BIDIRECTIONAL.rawValue | G_BINDING_SYNC_CREATE.rawValue))
        adw_header_bar_pack_start(cast(bar), iconButton("go-previous-symbolic", label: "Back", action: "win.back"))
        adw_header_bar_pack_start(cast(bar), iconButton("go-next-symbolic", label: "Forward", action: "win.forward"))
        adw_header_bar_pack_start(cast(bar), sidebar)
        let switcher = adw_view_switcher_new()!
        adw_view_switcher_set_stack(cast(switcher), views.cast())
        adw_view_switcher_set_policy(cast(switcher), ADW_VIEW_SWITCHER_POLICY_NARROW)
        adw_header_bar_pack_start(cast(bar), switcher)
        adw_header_bar_set_title_widget(cast(bar), entry.cast())

        let menu = g_menu_new()
        g_menu_append(menu, "Keyboard Shortcuts", "win.show-help-overlay")
        g_menu_append(menu, "About Manna", "app.about")
        let menuButton = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(cast(menuButton), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(cast(menuButton), UnsafeMutableRawPointer(menu)?.assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
        label(menuButton, "Main menu")
        adw_header_bar_pack_end(cast(bar), menuButton)
        adw_header_bar_pack_end(cast(bar), besideList.cast())
        adw_header_bar_pack_end(cast(bar), translations.cast())
        return bar
    }

    private func sidebar() -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_set_size_request(box, 240, -1)
        gtk_widget_add_css_class(box, "background")
        let bookScroller = scrolled(books.cast())
        gtk_widget_set_vexpand(bookScroller, 1)
        let chapterScroller = scrolled(chapters.cast())
        gtk_scrolled_window_set_min_content_height(cast(chapterScroller), 180)
        margins(chapters.cast(), 6)
        gtk_box_append(cast(box), bookScroller)
        gtk_box_append(cast(box), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(cast(box), chapterScroller)
        return box
    }

    /// The chapter: its heading and its verses, in a column of a readable width.
    private func page() -> UnsafeMutablePointer<GtkWidget> {
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)!
        margins(column, 24)
        gtk_box_append(cast(column), heading.cast())
        gtk_box_append(cast(column), text.cast())
        gtk_box_append(cast(column), parallel.cast())
        adw_clamp_set_maximum_size(clamp.cast(), 720)
        adw_clamp_set_child(clamp.cast(), column)
        gtk_scrolled_window_set_policy(scroller.cast(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(scroller.cast(), clamp.cast())
        gtk_widget_set_hexpand(scroller.cast(), 1)
        gtk_widget_set_vexpand(scroller.cast(), 1)
        let page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(cast(page), scroller.cast())
        gtk_box_append(cast(page), markBar.cast())
        for color in HighlightColor.allCases {
            // A round swatch of the colour: five of them fit a phone's width.
            let button = markButton(icon: nil, label: "Highlight \(color.rawValue)") { [unowned self] in
                mark { verses in
                    try model.highlight(verses, color: color)
                    return nil
                }
            }
            gtk_widget_add_css_class(button, "circular")
            gtk_widget_add_css_class(button, "highlight-" + color.rawValue)
            gtk_action_bar_pack_start(markBar.cast(), button)
        }
        gtk_action_bar_pack_start(markBar.cast(), markButton(icon: "edit-clear-symbolic", label: "Remove highlight") { [unowned self] in
            mark { try model.removeHighlights(from: $0) }
        })
        gtk_action_bar_pack_end(markBar.cast(), markButton(icon: "document-edit-symbolic", label: "Note") { [unowned self] in
            if let verses = selectedVerses() { editNote(on: verses) }
        })
        gtk_action_bar_pack_end(markBar.cast(), markButton(icon: "bookmark-new-symbolic", label: "Bookmark") { [unowned self] in
            mark { try model.toggleBookmark(on: $0) }
        })
        return page
    }

    /// Search: the entry, the total, the results; a result chosen opens its chapter at it.
    private func searchPage() -> UnsafeMutablePointer<GtkWidget> {
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        margins(column, 24)
        gtk_box_append(cast(column), searchEntry.cast())
        gtk_box_append(cast(column), searchTotal.cast())
        gtk_box_append(cast(column), searchResults.cast())
        return scrolled(column, atMost: 720)
    }

    /// Today: the verse of the day, large, and a button to read its chapter.
    private func today() -> UnsafeMutablePointer<GtkWidget> {
        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)!
        margins(column, 36)
        gtk_widget_set_valign(column, GTK_ALIGN_CENTER)
        gtk_box_append(cast(column), todayReference.cast())
        gtk_box_append(cast(column), todayText.cast())
        let read = gtk_button_new_with_label("Read the Chapter")!
        gtk_widget_add_css_class(read, "pill")
        gtk_widget_add_css_class(read, "suggested-action")
        gtk_widget_set_halign(read, GTK_ALIGN_CENTER)
        Object.on(read, "clicked") { [unowned self] in
            do {
                try model.goToVerseOfTheDay()
                showChapter()
            } catch {
                toast(ReaderModel.report(error).message)
            }
        }
        gtk_box_append(cast(column), read)
        return scrolled(column, atMost: 600)
    }

    private func connectSignals() {
        entry.on("activate") { [unowned self] in
            let typed = String(cString: gtk_editable_get_text(entry.cast()))
            guard !typed.allSatisfy(\.isWhitespace) else { return }
            if go(to: typed) == nil { gtk_editable_set_text(entry.cast(), "") }
        }
        translations.on("notify::selected", withArgument: { [unowned self] _ in
            guard !settingTranslation else { return 0 }
            let index = Int(gtk_drop_down_get_selected(translations.cast()))
            guard model.database.translations.indices.contains(index) else { return 0 }
            do { try model.switchTranslation(to: model.database.translations[index].code) } catch {
                toast(ReaderModel.report(error).message)
            }
            show()
            return 0
        })
        besideList.on("notify::selected", withArgument: { [unowned self] _ in
            let index = Int(gtk_drop_down_get_selected(besideList.cast()))
            let codes = model.database.translations.map(\.code)
            do { try model.show(beside: index == 0 || index > codes.count ? nil : codes[index - 1]) } catch {
                toast(ReaderModel.report(error).message)
            }
            show()
            return 0
        })
        // The window grew or shrank past the width where the sidebar folds: side by side or stacked.
        flap.on("notify::folded", withArgument: { [unowned self] _ in
            if model.beside != nil { show() }
            return 0
        })
        books.on("row-activated", withArgument: { [unowned self] row in
            guard let row else { return 0 }
            listChapters(of: Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self))) + 1)
            return 0
        })
        searchEntry.on("search-changed") { [unowned self] in search() }
        undoAction.on("activate", withArgument: { [unowned self] _ in
            guard let deleted = undoable else { return 0 }
            undoable = nil
            do { try model.undo(deleted) } catch { toast(ReaderModel.report(error).message) }
            show()
            return 0
        })
        g_action_map_add_action(window.cast(), undoAction.cast())
        backAction.on("activate", withArgument: { [unowned self] _ in
            if model.goBack() { showChapter() }
            return 0
        })
        forwardAction.on("activate", withArgument: { [unowned self] _ in
            if model.goForward() { showChapter() }
            return 0
        })
        g_action_map_add_action(window.cast(), backAction.cast())
        g_action_map_add_action(window.cast(), forwardAction.cast())
    }
}

// MARK: - Helpers

/// Sets the name a screen reader says for `widget`.
func label(_ widget: UnsafeMutablePointer<GtkWidget>, _ name: String) {
    manna_set_accessible_label(widget, name)
}

func margins(_ widget: UnsafeMutablePointer<GtkWidget>, _ size: Int32) {
    gtk_widget_set_margin_top(widget, size)
    gtk_widget_set_margin_bottom(widget, size)
    gtk_widget_set_margin_start(widget, size)
    gtk_widget_set_margin_end(widget, size)
}

/// `column` at most `width` pixels wide, centred, in a new window that scrolls it vertically.
func scrolled(_ column: UnsafeMutablePointer<GtkWidget>, atMost width: Int32) -> UnsafeMutablePointer<GtkWidget> {
    let clamp = adw_clamp_new()!
    adw_clamp_set_maximum_size(cast(clamp), width)
    adw_clamp_set_child(cast(clamp), column)
    return scrolled(clamp)
}

/// `child` in a new window that scrolls it vertically.
func scrolled(_ child: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
    let scroller = gtk_scrolled_window_new()!
    gtk_scrolled_window_set_policy(cast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
    gtk_scrolled_window_set_child(cast(scroller), child)
    return scroller
}

/// A button showing `icon` (nil: none, for a colour swatch) that acts on the chapter's selection,
/// named `label` for screen readers and in its tooltip: a click does not take the focus from the
/// chapter, whose selection it reads.
func markButton(icon: String?, label name: String, _ action: @escaping () -> Void) -> UnsafeMutablePointer<GtkWidget> {
    let button = icon.map { gtk_button_new_from_icon_name($0)! } ?? gtk_button_new()!
    label(button, name)
    gtk_widget_set_tooltip_text(button, name)
    gtk_widget_set_focus_on_click(button, 0)
    Object.on(button, "clicked", action)
    return button
}

/// A button showing `icon`, named `label` for screen readers and in its tooltip, that runs `action`.
func iconButton(_ icon: String, label name: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
    let button = gtk_button_new_from_icon_name(icon)!
    label(button, name)
    gtk_widget_set_tooltip_text(button, name)
    gtk_actionable_set_action_name(cast(button), action)
    return button
}

/// Calls `body` with `strings` as a NULL-terminated C array, valid for the call.
func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return array.withUnsafeBufferPointer { body($0.baseAddress!) }
}
