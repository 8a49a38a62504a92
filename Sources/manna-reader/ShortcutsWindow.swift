// The keyboard shortcuts (one list: the window shows it, ReaderApplication sets it) and their
// window (Ctrl+?, and "Keyboard Shortcuts" in the menu), which GTK builds from a description.
import CAdw
import MannaApp
import MannaKit

enum ShortcutsWindow {
    /// Every shortcut: what the window lists, the action it runs, its accelerator
    /// (ReaderApplication sets each one).
    static let shortcuts = [
        (title: "Go to a passage", action: "app.go-to", accelerator: "<Control>l"),
        (title: "Back", action: "win.back", accelerator: "<Alt>Left"),
        (title: "Forward", action: "win.forward", accelerator: "<Alt>Right"),
        (title: "Show or hide books and chapters", action: "app.toggle-sidebar", accelerator: "F9"),
        (title: "Keyboard shortcuts", action: "win.show-help-overlay", accelerator: "<Control>question"),
        (title: "Quit", action: "app.quit", accelerator: "<Control>q"),
    ]

    /// Gives `window` its shortcuts window (GTK then shows it on Ctrl+? and the
    /// win.show-help-overlay action).
    static func attach(to window: Object) {
        let items = shortcuts.map { title, _, accelerator in
            """
            <child><object class="GtkShortcutsShortcut">
              <property name="title">\(title)</property>
              <property name="accelerator">\(Markup.escaped(accelerator))</property>
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
