// The desktop entry and icon `manna install` and the Debian package put in place, so the
// desktop knows the application its notifications name (hint desktop-entry=manna). They live
// here, not only in packaging/, because an installed manna cannot count on finding the
// checkout; packaging/manna.desktop (with the reader window), packaging/manna-terminal.desktop
// (without) and packaging/manna.svg are these texts, and a test keeps them equal (as systemd/ is
// to SchedulerFiles).

public enum DesktopFiles {
    /// The desktop file id: notifications name it without `.desktop`.
    public static let entryName = "manna.desktop"
    /// The themed icon name the entry uses, and the icon's file name without `.svg`.
    public static let iconName = "manna"

    /// The reader window's program, installed beside `manna` (`<prefix>/bin`), where one is built.
    public static let readerName = "manna-reader"

    /// The entry for an install with the reader window (`windowEntry`) or without (`terminalEntry`).
    public static func entry(window: Bool) -> String { window ? windowEntry : terminalEntry }

    /// The entry where the reader window is installed: Manna in the menus and the app grid, and
    /// a click on a notification (which names this entry) opens the window. `StartupWMClass` is
    /// the window's application id, which is how GNOME Shell ties the window to this entry.
    /// `manna-reader` by name in Exec: a package's /usr/bin and a user's ~/.local/bin (Debian's
    /// ~/.profile puts it on PATH) are both found, and one text serves every install.
    public static let windowEntry = """
        # Manna's desktop entry. Notifications name it (hint desktop-entry=manna), so desktops group
        # them under Manna and let users mute them (GNOME: Settings, Notifications, which lists it for
        # X-GNOME-UsesNotifications). It opens the reader window, from the menus and from a click on a
        # notification. Written by `manna install` and the Debian package where manna-reader is installed
        # (Sources/MannaKit/Install/DesktopFiles.swift; packaging/manna-terminal.desktop where it is not).
        [Desktop Entry]
        Type=Application
        Name=Manna
        GenericName=Bible Reader
        Comment=The verse of the day, prayer reminders and an offline Bible
        Icon=manna
        Exec=manna-reader
        Terminal=false
        StartupNotify=true
        StartupWMClass=invalid.manna.Reader
        Categories=Education;Literature;
        Keywords=Bible;Scripture;Verse;Prayer;
        X-GNOME-UsesNotifications=true

        """

    /// The entry where only the terminal program is installed: it stays out of the menus
    /// (NoDisplay), and a click on a notification opens today's verse in a terminal.
    public static let terminalEntry = """
        # Manna's desktop entry. Notifications name it (hint desktop-entry=manna), so desktops group
        # them under Manna and let users mute them (GNOME: Settings, Notifications, which lists it for
        # X-GNOME-UsesNotifications). Without the reader window manna is a terminal program, so it stays
        # out of the menus (NoDisplay); clicking a notification opens today's verse in a terminal, held
        # until Enter. Written as manna.desktop by `manna install` where manna-reader is not installed
        # (Sources/MannaKit/Install/DesktopFiles.swift; packaging/manna.desktop where it is).
        [Desktop Entry]
        Type=Application
        Name=Manna
        Comment=The verse of the day, prayer reminders and an offline Bible
        Icon=manna
        Exec=sh -c "manna today; echo; echo Press Enter to close.; read answer"
        Terminal=true
        Categories=Education;Literature;
        NoDisplay=true
        X-GNOME-UsesNotifications=true

        """

    /// A hand-drawn open book with a ribbon, scalable (hicolor/scalable/apps).
    public static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
          <title>Manna</title>
          <path d="M6 34v72l52 6q6 5 12 0l52-6V34z" fill="#6b3f24"/>
          <path d="M12 26q28-8 50 6v76q-22-12-50-6z" fill="#fbf5e6" stroke="#c8b487" stroke-width="2" stroke-linejoin="round"/>
          <path d="M116 26q-28-8-50 6v76q22-12 50-6z" fill="#fbf5e6" stroke="#c8b487" stroke-width="2" stroke-linejoin="round"/>
          <path d="M20 44q16-4 34 4M20 56q16-4 34 4M20 68q16-4 34 4M20 80q16-4 34 4M74 48q18-8 34-4M74 60q18-8 34-4M74 72q18-8 34-4M74 84q18-8 34-4" fill="none" stroke="#b9a67b" stroke-width="3" stroke-linecap="round"/>
          <path d="M92 25v32l7-6 7 6V26q-7-2-14-1z" fill="#b32a30"/>
        </svg>

        """
}
