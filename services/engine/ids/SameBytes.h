// Comparing secrets' MACs (portal links, cursors) in time that does not
// depend on where the first difference is, so a forger learns nothing from
// how long a refusal takes.
#pragma once

#include <QByteArray>

namespace md::engine {

inline bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= char(a.at(i) ^ b.at(i));
    return difference == 0;
}

} // namespace md::engine
