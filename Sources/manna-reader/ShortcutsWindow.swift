// The keyboard shortcuts window (Ctrl+?, and "Keyboard Shortcuts" in the menu): GTK builds it
// from this description, and the accelerators in it are the ones ReaderApplication sets.
import CAdw
import MannaApp

enum ShortcutsWindow {
    /// (title, accelerator) in the order the window lists them.
    static let shortcuts = [
        ("Go to a passage", "<Control>l"),
        ("Back", "<Alt>Left"),
        ("Forward", "<Alt>Right"),
        ("Show or hide books and chapters", "F9"),
        ("Keyboard shortcuts", "<Control>question"),
        ("Quit", "<Control>q"),
    ]

    /// Gives `window` its shortcuts window (GTK then shows it on Ctrl+? and the
    /// win.show-help-overlay action).
    static func attach(to window: Object) {
        let items = shortcuts.map { title, accelerator in
            """
            <child><object class="GtkShortcutsShortcut">
              <property name="title">\(title)</property>
              <property name="accelerator">\(ChapterMarkup.escaped(accelerator))</property>
            </object></child>
            """
        }.joined()
        let description = """
            <interface>
              <object class="GtkShortcutsWindow" id="shortcuts">
                <property name="modal">1</property>
                <child><object class="GtkShortcutsSection">
                  <property name="section-name">reader</property>
                  <child><object class="GtkShortcutsGroup">
                    <property name="title">Reading</property>
                    \(items)
                  </object></child>
                </object></child>
              </object>
            </interface>
            """
        let builder = gtk_builder_new_from_string(description, -1)
        gtk_application_window_set_help_overlay(window.cast(), OpaquePointer(gtk_builder_get_object(builder, "shortcuts")))
        g_object_unref(UnsafeMutableRawPointer(builder))
    }
}
