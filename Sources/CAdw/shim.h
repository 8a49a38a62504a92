// GTK 4 and libadwaita for manna-reader, and what Swift cannot call of them: variadic
// functions, each wrapped for the one use Manna makes of it.
#include <adwaita.h>

/// Sets the name a screen reader says for `widget` (gtk_accessible_update_property is variadic).
static inline void manna_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

/// Prints `line` on the standard error of the process that sent a command line to the
/// running instance (g_application_command_line_printerr takes a format).
static inline void manna_command_line_printerr(GApplicationCommandLine *command_line, const char *line) {
    g_application_command_line_printerr(command_line, "%s\n", line);
}

/// Prints `line` on the standard output of the process that sent a command line.
static inline void manna_command_line_print(GApplicationCommandLine *command_line, const char *line) {
    g_application_command_line_print(command_line, "%s\n", line);
}
