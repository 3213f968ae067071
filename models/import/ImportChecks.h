// The import batch's checks across rows, kept beside the rows: included rows
// that name one customer (a problem: one import would overwrite the other;
// each names the other lines), and rows that name a plan the workspace does
// not have (a warning, said at validation: the server would refuse that
// customer at the dry run, and the user may fix the cell, map the value or
// leave the row out). Each update says which rows' findings changed, so the
// table repaints those rows only and an open editor stays open.
#pragma once

#include "models/import/ImportSource.h"

#include <QCoreApplication>
#include <QHash>
#include <QSet>

#include <optional>

namespace md::models {

class ImportChecks final
{
    Q_DECLARE_TR_FUNCTIONS(ImportChecks)

public:
    // The customer a row names, valid or not; empty when it names none.
    static QString customerOf(const ImportRow &row);

    // The workspace's plan ids; until they are known no plan is flagged.
    void setKnownPlans(const QStringList &plans);
    bool knowsPlans() const { return m_plans.has_value(); }

    // Checks `rows` again; the rows whose findings changed.
    QList<int> update(const QList<ImportRow> &rows);

    bool sharesCustomer(int row) const { return m_otherLines.contains(row); }
    QString duplicateProblem(int row, const ImportRow &shown) const;
    bool hasUnknownPlan(int row) const { return m_unknownPlans.contains(row); }
    QString planWarning(int row) const;
    int unknownPlanCount() const { return int(m_unknownPlans.size()); }

private:
    struct OtherLines
    {
        static constexpr int Named = 5;
        QList<int> first; // the first few lines of the same customer's other rows
        int count = 0;    // how many other rows
        friend bool operator==(const OtherLines &, const OtherLines &) = default;
    };
    QHash<int, OtherLines> m_otherLines; // by row
    QHash<int, QString> m_unknownPlans;  // by row: the plan id it names
    std::optional<QSet<QString>> m_plans;
    QString m_planList; // "free, pro, starter", for the warning
};

} // namespace md::models
