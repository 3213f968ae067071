// Where a top-level window opens: within the available area of its screen
// (the desktop less panels), its remembered geometry shrunk and moved in
// when the screen is smaller than the one it was saved on, 90 % of the area
// the first time. A window that opens past the screen's edge hides its
// status bar and badges (issue 33, a 1280×720 screen).
#pragma once

#include <QMargins>
#include <QRect>

class QWidget;

namespace md::views {

class WindowPlacement final
{
public:
    // `remembered` fitted into `available` less `frame` (the title bar);
    // an invalid `remembered`: 90 % of it, centred.
    static QRect placement(const QRect &remembered, const QRect &available, const QMargins &frame);
    // Places `window` on the screen under its centre (`restored`: its
    // geometry was remembered) or its own screen.
    static void fit(QWidget *window, bool restored);
};

} // namespace md::views
