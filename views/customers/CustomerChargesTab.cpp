#include "views/customers/CustomerChargesTab.h"

#include "models/common/AmountFormat.h"
#include "models/common/Workbook.h"
#include "models/customers/ChargeLinesModel.h"
#include "models/customers/ChargePeriodsModel.h"
#include "models/customers/StatementDocument.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

CustomerChargesTab::CustomerChargesTab(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_periods(new models::ChargePeriodsModel(backend, this))
    , m_lines(new models::ChargeLinesModel(this))
    , m_periodTable(new QTableView(this))
    , m_lineTable(new QTableView(this))
    , m_summary(new QLabel(this))
    , m_pdf(new QPushButton(tr("Export &PDF…"), this))
    , m_workbook(new QPushButton(tr("Export &workbook…"), this))
{
    m_periodTable->setObjectName(QStringLiteral("chargePeriods"));
    m_lineTable->setObjectName(QStringLiteral("chargeLines"));
    m_summary->setObjectName(QStringLiteral("chargeSummary"));
    m_pdf->setObjectName(QStringLiteral("exportStatementPdf"));
    m_workbook->setObjectName(QStringLiteral("exportStatementWorkbook"));
    for (QTableView *table : {m_periodTable, m_lineTable}) {
        table->setSelectionBehavior(QAbstractItemView::SelectRows);
        table->setSelectionMode(QAbstractItemView::SingleSelection);
        table->verticalHeader()->hide();
        table->setWordWrap(false);
    }
    m_periodTable->setModel(m_periods);
    m_periodTable->horizontalHeader()->setStretchLastSection(true);
    m_lineTable->setModel(m_lines);
    m_lineTable->horizontalHeader()->setSectionResizeMode(models::ChargeLinesModel::WhatColumn,
                                                          QHeaderView::Stretch);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setText(tr("Select a customer to see what they owe."));
    m_pdf->setEnabled(false);
    m_workbook->setEnabled(false);

    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_summary);
    belowLayout->addWidget(m_lineTable);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_pdf);
    buttons->addWidget(m_workbook);
    belowLayout->addLayout(buttons);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_periodTable);
    splitter->addWidget(below);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_periods, &models::ChargePeriodsModel::loaded, this, [this] {
        m_periodTable->resizeColumnsToContents();
        if (m_periods->rowCount() > 0)
            m_periodTable->selectRow(0);
        else
            m_summary->setText(tr("No charges yet."));
    });
    connect(m_periods, &models::ChargePeriodsModel::failed, this,
            [this](const api::ApiError &error) {
                m_summary->setText(tr("Charges could not be read: %1").arg(error.message));
            });
    connect(m_periodTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { show(current.isValid() ? current.row() : -1); });
    connect(m_pdf, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("pdf")); });
    connect(m_workbook, &QPushButton::clicked, this, [this] { exportAs(QStringLiteral("xlsx")); });
}

CustomerChargesTab::~CustomerChargesTab() = default;

void CustomerChargesTab::setCustomer(const QString &customerId)
{
    m_shown = -1;
    m_lines->setLines({});
    m_pdf->setEnabled(false);
    m_workbook->setEnabled(false);
    m_summary->setText(tr("Reading what %1 owes…").arg(customerId));
    m_periods->setCustomer(customerId);
}

void CustomerChargesTab::show(int row)
{
    m_shown = row;
    const bool chosen = row >= 0 && row < m_periods->rowCount();
    m_pdf->setEnabled(chosen);
    m_workbook->setEnabled(chosen);
    if (!chosen) {
        m_lines->setLines({});
        return;
    }
    const models::ChargePeriodsModel::Period &period = m_periods->period(row);
    m_lines->setLines(period.lines);
    m_lineTable->resizeColumnsToContents();
    const QString days = models::ChargePeriodsModel::periodInWords(period.start, period.end);
    m_summary->setText(
        period.closedAt
            ? tr("Statement for %1: %2 %3, closed %4")
                  .arg(days, models::formatAmount(period.total), period.currency.toUpper(),
                       models::formatDate(*period.closedAt))
            : tr("This period so far, %1: %2 %3")
                  .arg(days, models::formatAmount(period.total), period.currency.toUpper()));
}

bool CustomerChargesTab::exportTo(const QString &path)
{
    if (m_shown < 0 || m_shown >= m_periods->rowCount())
        return false;
    const models::StatementDocument document(m_periods->customer(), m_periods->period(m_shown),
                                             QDateTime::currentDateTime());
    const auto written = models::Workbook::isWorkbookPath(path) ? document.writeWorkbook(path)
                                                                : document.writePdf(path);
    if (!written)
        QMessageBox::warning(this, tr("Export statement"), written.error().message);
    return written.ok();
}

void CustomerChargesTab::exportAs(const QString &extension)
{
    if (m_shown < 0)
        return;
    const models::StatementDocument document(m_periods->customer(), m_periods->period(m_shown),
                                             QDateTime::currentDateTime());
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export statement"), folder + u'/' + document.suggestedName(extension),
        extension == QLatin1StringView("pdf") ? tr("PDF (*.pdf)") : tr("Excel workbook (*.xlsx)"));
    if (!path.isEmpty())
        exportTo(path);
}

} // namespace md::views
