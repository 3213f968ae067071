#include "views/window/WindowPlacement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace md::views {

QRect WindowPlacement::placement(const QRect &remembered, const QRect &available,
                                 const QMargins &frame)
{
    const QRect room = available.marginsRemoved(frame);
    if (!remembered.isValid()) {
        QRect centred(QPoint(), room.size() * 0.9);
        centred.moveCenter(room.center());
        return centred;
    }
    QRect fitted(remembered.topLeft(), remembered.size().boundedTo(room.size()));
    fitted.moveLeft(
        std::clamp(fitted.left(), room.left(), room.left() + room.width() - fitted.width()));
    fitted.moveTop(
        std::clamp(fitted.top(), room.top(), room.top() + room.height() - fitted.height()));
    return fitted;
}

void WindowPlacement::fit(QWidget *window, bool restored)
{
    const QRect remembered = restored ? window->geometry() : QRect();
    QScreen *screen = restored ? QGuiApplication::screenAt(remembered.center()) : nullptr;
    if (!screen)
        screen = window->screen();
    if (!screen)
        return;
    // The title bar is not known before the window is shown: Qt's own
    // restoreGeometry() guesses it the same way.
    const QMargins titleBar(0, window->style()->pixelMetric(QStyle::PM_TitleBarHeight), 0, 0);
    window->setGeometry(placement(remembered, screen->availableGeometry(), titleBar));
}

} // namespace md::views
