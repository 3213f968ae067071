// The customer detail's Charges tab (docs/billing.md; docs/user-guide.md,
// "What a customer owes"): the open period so far and every closed
// statement, newest first; the chosen period's lines in words with their
// amounts and total below; the period exported as a PDF to send or as a
// workbook.
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ChargeLinesModel;
class ChargePeriodsModel;
} // namespace md::models

namespace md::views {

class CustomerChargesTab final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CustomerChargesTab)

public:
    explicit CustomerChargesTab(backend::BillingBackend *backend, QWidget *parent = nullptr);
    ~CustomerChargesTab() override;

    void setCustomer(const QString &customerId);
    models::ChargePeriodsModel *periods() const { return m_periods; }
    models::ChargeLinesModel *lines() const { return m_lines; }
    QTableView *periodTable() const { return m_periodTable; }
    QLabel *summary() const { return m_summary; }
    // Without asking: the chosen period to `path`, a PDF or a workbook by
    // its extension.
    bool exportTo(const QString &path);

private:
    void show(int row);
    void exportAs(const QString &extension);

    models::ChargePeriodsModel *m_periods;
    models::ChargeLinesModel *m_lines;
    QTableView *m_periodTable;
    QTableView *m_lineTable;
    QLabel *m_summary;
    QPushButton *m_pdf;
    QPushButton *m_workbook;
    int m_shown = -1;
};

} // namespace md::views
