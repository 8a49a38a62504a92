// The keyboard shortcuts' window (Ctrl+?, and "Keyboard Shortcuts" in the menu), which GTK builds
// from a description of ReaderShortcut.all (the one list, which ReaderApplication sets).
import CAdw
import MannaApp
import MannaKit

enum ShortcutsWindow {
    /// Gives `window` its shortcuts window (GTK then shows it on Ctrl+? and the
    /// win.show-help-overlay action).
    static func attach(to window: Object) {
        let items = ReaderShortcut.all.map { shortcut in
            """
            <child><object class="GtkShortcutsShortcut">
              <property name="title">\(shortcut.title)</property>
              <property name="accelerator">\(Markup.escaped(shortcut.accelerator))</property>
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
