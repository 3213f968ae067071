// The Revenue page (docs/user-guide.md, "Revenue"): what the organization
// billed in each of the last twelve months, stacked by product (Qt Charts),
// the current month marked as so far; below, one month by product, feature
// or its top customers, exported as a workbook for accounting.
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class RevenueHistory;
class RevenueTableModel;
} // namespace md::models

namespace md::views {

class RevenuePage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RevenuePage)

public:
    // What marks the month still open, after its label.
    static constexpr QChar OpenMark = u'*';

    explicit RevenuePage(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~RevenuePage() override;

    // Reads the twelve months up to now again.
    void refresh();
    models::RevenueHistory *history() const { return m_history; }
    models::RevenueTableModel *table() const { return m_table; }
    QComboBox *monthChoice() const { return m_month; }
    QComboBox *groupChoice() const { return m_groupBy; }
    QChart *chart() const { return m_chart; }
    // Without asking: the table to `path` as a workbook.
    bool exportTo(const QString &path);

protected:
    void changeEvent(QEvent *event) override;

private:
    void redraw();
    void loadTable();

    models::RevenueHistory *m_history;
    models::RevenueTableModel *m_table;
    QChartView *m_view;
    QChart *m_chart;
    QLabel *m_state;
    QComboBox *m_month;
    QComboBox *m_groupBy;
    QTableView *m_tableView;
    QPushButton *m_export;
};

} // namespace md::views
