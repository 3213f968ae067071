// What the screenshot tool's scenes share: letting the event loop settle
// before a grab, the dark palette, and a backend's answer waited for.
#pragma once

#include "services/backend/BillingBackend.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPalette>

namespace md::shots {

// Handles what is pending (layout, paint) before a grab.
void idle();

// Lets the event loop run until `done`, then idles; a picture of a page that
// never got there would be wrong, so after 10 s the tool stops and says where.
template <typename F> void settle(F &&done, int line = __builtin_LINE())
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > 10000)
            qFatal("screenshots: still waiting after 10 s (line %d)", line);
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    idle();
}

QPalette darkPalette();

template <typename T> T answered(backend::Reply<T> reply, int line = __builtin_LINE())
{
    settle([&] { return reply.isFinished(); }, line);
    if (!reply.result())
        qFatal("screenshots, line %d: %s", line, qPrintable(reply.result().error().message));
    return reply.result().value();
}

} // namespace md::shots
