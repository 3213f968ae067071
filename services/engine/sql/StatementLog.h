// Every distinct statement the engine prepares while a listener is on, for
// tst_queryplans (issue 35): the per-call paths are run, and each statement
// they prepared is checked for a plan that walks a whole organization; and
// how many ran, for tests that hold a path to its count of statements
// (tst_billingclock). Off, noting a statement costs one relaxed atomic load.
#pragma once

#include <QString>
#include <QStringList>

namespace md::engine {

class StatementLog final
{
public:
    static void start();
    // The statements noted since start(), in the order first seen; stops.
    static QStringList stop();
    // How many statements ran since start(), repeats included.
    static qint64 runs();
    static void note(const QString &sql);
};

} // namespace md::engine
