#include "models/import/ImportChecks.h"

#include <algorithm>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

template <typename K, typename V>
QList<int> changedKeys(const QHash<K, V> &before, const QHash<K, V> &after)
{
    QList<int> changed;
    for (auto it = after.cbegin(); it != after.cend(); ++it)
        if (before.value(it.key()) != it.value())
            changed.append(it.key());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        if (!after.contains(it.key()))
            changed.append(it.key());
    return changed;
}

} // namespace

QString ImportChecks::customerOf(const ImportRow &row)
{
    return row.request ? row.request->customerId : row.body.value("customer_id"_L1).toString();
}

void ImportChecks::setKnownPlans(const QStringList &plans)
{
    m_plans = QSet<QString>(plans.cbegin(), plans.cend());
    QStringList sorted(m_plans->cbegin(), m_plans->cend());
    std::sort(sorted.begin(), sorted.end());
    constexpr qsizetype Named = 8;
    m_planList =
        sorted.mid(0, Named).join(u", "_s) + (sorted.size() > Named ? u", …"_s : QString());
}

QList<int> ImportChecks::update(const QList<ImportRow> &rows)
{
    QHash<QString, QList<int>> rowsOf;
    QHash<int, QString> unknown;
    for (int r = 0; r < rows.size(); ++r) {
        const ImportRow &row = rows.at(r);
        if (!row.included)
            continue;
        if (const QString id = customerOf(row); !id.isEmpty())
            rowsOf[id].append(r);
        if (m_plans && row.request)
            for (const api::Billable &billable : row.request->billables)
                if (!m_plans->contains(billable.plan.planId))
                    unknown.insert(r, billable.plan.planId);
    }
    QHash<int, OtherLines> others;
    for (const QList<int> &same : std::as_const(rowsOf)) {
        if (same.size() < 2)
            continue;
        // A column mapped wrongly can make thousands of one id: a few lines name them.
        for (const int r : same) {
            OtherLines &lines = others[r];
            lines.count = int(same.size()) - 1;
            for (qsizetype i = 0; i < same.size() && lines.first.size() < OtherLines::Named; ++i)
                if (same.at(i) != r)
                    lines.first.append(rows.at(same.at(i)).line);
        }
    }
    QList<int> changed = changedKeys(m_otherLines, others) + changedKeys(m_unknownPlans, unknown);
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    m_otherLines = std::move(others);
    m_unknownPlans = std::move(unknown);
    return changed;
}

QString ImportChecks::duplicateProblem(int row, const ImportRow &shown) const
{
    const auto others = m_otherLines.constFind(row);
    if (others == m_otherLines.cend())
        return {};
    QStringList lines;
    for (const int line : others->first)
        lines.append(QString::number(line));
    if (others->count > others->first.size())
        lines.append(u"…"_s);
    return tr("customer %1 is also on line(s) %2; leave out all but one", nullptr, others->count)
        .arg(customerOf(shown), lines.join(u", "_s));
}

QString ImportChecks::planWarning(int row) const
{
    const auto plan = m_unknownPlans.constFind(row);
    if (plan == m_unknownPlans.cend())
        return {};
    return tr("\"%1\" is not a plan of this workspace (%2): the import would refuse this "
              "customer. Fix the cell, map the value on the Mapping page, or leave the row out")
        .arg(*plan, m_planList.isEmpty() ? tr("it has none") : m_planList);
}

} // namespace md::models
