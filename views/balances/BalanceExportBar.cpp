#include "views/balances/BalanceExportBar.h"

#include "models/balances/BalanceExport.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>

namespace md::views {

BalanceExportBar::BalanceExportBar(models::BalanceExport *exporter, QWidget *parent)
    : QWidget(parent)
    , m_export(exporter)
    , m_progress(new QProgressBar(this))
    , m_label(new QLabel(this))
    , m_cancel(new QPushButton(tr("&Cancel export"), this))
{
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(6, 0, 6, 6);
    m_progress->setRange(0, 0); // until the totals say how many rows to expect
    m_progress->setMaximumWidth(200);
    m_cancel->setObjectName(QStringLiteral("cancelExport"));
    row->addWidget(m_label);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    row->addStretch();
    connect(m_cancel, &QPushButton::clicked, m_export, &models::BalanceExport::cancel);
    hide();

    connect(m_export, &models::BalanceExport::progress, this, [this](qint64 rows, qint64 expected) {
        m_label->setText(tr("Exporting… %Ln row(s) written", nullptr, int(rows)));
        // Rows recorded meanwhile can pass the count the totals gave.
        m_progress->setRange(0, expected < 0 ? 0 : int(qMax(expected, rows)));
        m_progress->setValue(int(rows));
    });
    connect(
        m_export, &models::BalanceExport::finished, this,
        [this](qint64 rows, const QString &totalsProblem) {
            hide();
            if (m_making != Making::Files) {
                Q_EMIT statusMessage(
                    m_making == Making::Report
                        ? tr("Saved the report of %Ln row(s).", nullptr, int(rows))
                        : tr("Sent the report of %Ln row(s) to the printer.", nullptr, int(rows)));
                return;
            }
            Q_EMIT statusMessage(
                totalsProblem.isEmpty()
                    ? tr("Exported %Ln row(s) and their totals.", nullptr, int(rows))
                    : tr("Exported %Ln row(s); their totals were not written: %1", nullptr,
                         int(rows))
                          .arg(totalsProblem));
        });
    connect(m_export, &models::BalanceExport::saving, this, [this] {
        m_label->setText(tr("Compressing the workbook…"));
        m_progress->setRange(0, 0);
    });
    connect(m_export, &models::BalanceExport::drawing, this, [this](int page, int pages) {
        m_label->setText(pages == 0 ? tr("Laying out the report…")
                                    : tr("Drawing page %1 of %2…").arg(page).arg(pages));
        // A printer's pages, once begun, are printed whole.
        m_cancel->setEnabled(m_making != Making::Printout);
        m_progress->setRange(0, pages);
        m_progress->setValue(page);
    });
    connect(m_export, &models::BalanceExport::canceled, this, [this] {
        hide();
        Q_EMIT statusMessage(tr("Export canceled; no file was written."));
    });
    connect(m_export, &models::BalanceExport::failed, this, [this](const QString &message) {
        hide();
        QMessageBox::warning(this, tr("Export failed"),
                             tr("%1\nNo file was written.").arg(message));
    });
}

void BalanceExportBar::started(Making making)
{
    m_making = making;
    m_label->setText(making == Making::Printout ? tr("Preparing the report…") : tr("Exporting…"));
    m_progress->setRange(0, 0);
    m_cancel->setEnabled(true);
    show();
}

} // namespace md::views
