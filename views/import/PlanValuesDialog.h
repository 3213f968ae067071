// Mapping ▸ Plan values…: what each text of the plan column stands for,
// when an old system names plans its own way ("Pro Monthly (USD)" → pro).
// One row per distinct text with how many rows hold it, and the plan it
// maps to, chosen from the workspace's plans or typed; left empty, the
// text is taken as the plan's id. Saved with the mapping and its profile.
#pragma once

#include <QDialog>
#include <QMap>

class QTableWidget;

namespace md::views {

class PlanValuesDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlanValuesDialog)

public:
    // `values`: each text and its rows; `plans`: the workspace's plan ids;
    // `current`: the mapping's plan values.
    PlanValuesDialog(const QMap<QString, int> &values, const QStringList &plans,
                     const QMap<QString, QString> &current, QWidget *parent = nullptr);

    // `values` with the dialog's texts set to their plans, or left out when
    // left empty; texts of other files (a profile's) are kept.
    QMap<QString, QString> applyTo(QMap<QString, QString> values) const;
    QTableWidget *table() const { return m_table; }

    enum Column { TextColumn, RowsColumn, PlanColumn };

private:
    QTableWidget *m_table;
};

} // namespace md::views
