// The p-th percentile (0..1) of latencies, nearest rank; 0 for none.
#pragma once

#include <QList>

#include <algorithm>

namespace md::bench {

inline double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    return values.at(std::min<qsizetype>(values.size() - 1, qsizetype(p * double(values.size()))));
}

} // namespace md::bench
