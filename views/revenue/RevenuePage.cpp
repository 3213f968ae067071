#include "views/revenue/RevenuePage.h"

#include "models/common/AmountFormat.h"
#include "models/revenue/RevenueHistory.h"
#include "models/revenue/RevenueTableModel.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

namespace md::views {

using namespace Qt::StringLiterals;

RevenuePage::RevenuePage(backend::BillingBackend *backend, QWidget *parent)
    : QWidget(parent)
    , m_history(new models::RevenueHistory(backend, this))
    , m_table(new models::RevenueTableModel(backend, this))
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_state(new QLabel(this))
    , m_month(new QComboBox(this))
    , m_groupBy(new QComboBox(this))
    , m_tableView(new QTableView(this))
    , m_export(new QPushButton(tr("Export &workbook…"), this))
{
    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_month->setObjectName(u"revenueMonth"_s);
    m_groupBy->setObjectName(u"revenueGroupBy"_s);
    m_export->setObjectName(u"exportRevenue"_s);
    m_groupBy->addItem(tr("By product"), int(api::RevenueGroupBy::Product));
    m_groupBy->addItem(tr("By feature"), int(api::RevenueGroupBy::Feature));
    m_groupBy->addItem(tr("By customer (top 100)"), int(api::RevenueGroupBy::Customer));
    m_tableView->setModel(m_table);
    m_tableView->setObjectName(u"revenueTable"_s);
    m_tableView->verticalHeader()->hide();
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->horizontalHeader()->setSectionResizeMode(models::RevenueTableModel::KeyColumn,
                                                          QHeaderView::Stretch);
    m_state->setWordWrap(true);
    m_export->setEnabled(false);

    auto *monthLabel = new QLabel(tr("&Month:"), this);
    monthLabel->setBuddy(m_month);
    auto *choices = new QHBoxLayout;
    choices->addWidget(monthLabel);
    choices->addWidget(m_month);
    choices->addWidget(m_groupBy);
    choices->addStretch();
    choices->addWidget(m_export);
    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addLayout(choices);
    belowLayout->addWidget(m_state);
    belowLayout->addWidget(m_tableView);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(below);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(splitter);

    connect(m_history, &models::RevenueHistory::loaded, this, [this] {
        const QSignalBlocker quiet(m_month);
        const int chosen = m_month->currentIndex();
        m_month->clear();
        const QList<models::RevenueHistory::Month> &months = m_history->months();
        for (auto it = months.crbegin(); it != months.crend(); ++it) {
            const QString name = locale().toString(
                QDateTime::fromMSecsSinceEpoch(it->start, Qt::UTC).date(), u"MMMM yyyy"_s);
            m_month->addItem(it->open ? tr("%1 (so far)").arg(name) : name, it->start);
        }
        m_month->setCurrentIndex(chosen >= 0 && chosen < m_month->count() ? chosen : 0);
        redraw();
        loadTable();
    });
    const auto failed = [this](const api::ApiError &error) {
        m_state->setText(tr("Revenue could not be read: %1").arg(error.message));
    };
    connect(m_history, &models::RevenueHistory::failed, this, failed);
    connect(m_table, &models::RevenueTableModel::failed, this, failed);
    connect(m_table, &models::RevenueTableModel::loaded, this, [this] {
        const api::RevenueSummary &summary = m_table->summary();
        QString state = tr("%1 in %2: %3 %4")
                            .arg(m_groupBy->currentText(), m_month->currentText(),
                                 models::formatAmount(summary.total), summary.currency.toUpper());
        if (summary.openAsOf)
            state +=
                u" "_s +
                tr("(open periods as of %1)")
                    .arg(locale().toString(QDateTime::fromMSecsSinceEpoch(*summary.openAsOf).time(),
                                           QLocale::ShortFormat));
        m_state->setText(state);
        m_tableView->resizeColumnsToContents();
        m_export->setEnabled(true);
    });
    connect(m_month, &QComboBox::currentIndexChanged, this, &RevenuePage::loadTable);
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, &RevenuePage::loadTable);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
        const QString month =
            QDateTime::fromMSecsSinceEpoch(m_month->currentData().toLongLong(), Qt::UTC)
                .toString(u"yyyy-MM"_s);
        const QString path = QFileDialog::getSaveFileName(this, tr("Export revenue"),
                                                          folder + u"/revenue-%1.xlsx"_s.arg(month),
                                                          tr("Excel workbook (*.xlsx)"));
        if (!path.isEmpty())
            exportTo(path);
    });
}

RevenuePage::~RevenuePage() = default;

void RevenuePage::refresh()
{
    m_state->setText(tr("Reading revenue…"));
    m_history->load(QDateTime::currentMSecsSinceEpoch());
}

bool RevenuePage::exportTo(const QString &path)
{
    const auto written = m_table->writeWorkbook(path);
    if (!written)
        QMessageBox::warning(this, tr("Export revenue"), written.error().message);
    return written.ok();
}

void RevenuePage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        redraw();
}

void RevenuePage::loadTable()
{
    const int index = m_month->currentIndex();
    if (index < 0)
        return;
    const qint64 start = m_month->currentData().toLongLong();
    for (const models::RevenueHistory::Month &month : m_history->months())
        if (month.start == start)
            m_table->load(month.start, month.end,
                          api::RevenueGroupBy(m_groupBy->currentData().toInt()), true);
}

void RevenuePage::redraw()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    m_chart->setTheme(palette().color(QPalette::Window).lightness() < 128
                          ? QChart::ChartThemeDark
                          : QChart::ChartThemeLight);
    m_chart->setLocalizeNumbers(true);
    m_chart->setLocale(locale());
    const QList<models::RevenueHistory::Month> &months = m_history->months();
    if (months.isEmpty())
        return;
    QStringList categories;
    for (const models::RevenueHistory::Month &month : months) {
        const QString name = locale().toString(
            QDateTime::fromMSecsSinceEpoch(month.start, Qt::UTC).date(), u"MMM yy"_s);
        categories.append(month.open ? name + OpenMark : name);
    }
    auto *series = new QStackedBarSeries;
    double top = 0;
    for (const QString &product : m_history->products()) {
        auto *set = new QBarSet(models::RevenueTableModel::keyInWords(product));
        for (const models::RevenueHistory::Month &month : months)
            // Only drawing turns an exact sum into a double.
            *set << month.byProduct.value(product).toString().toDouble();
        series->append(set);
    }
    for (const models::RevenueHistory::Month &month : months)
        top = std::max(top, month.total.toString().toDouble());
    m_chart->addSeries(series);
    auto *axisX = new QBarCategoryAxis;
    axisX->append(categories);
    auto *axisY = new QValueAxis;
    axisY->setLabelFormat(u"%.0f"_s);
    axisY->setRange(0, top > 0 ? top * 1.1 : 1);
    m_chart->addAxis(axisX, Qt::AlignBottom);
    m_chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    m_chart->setTitle(tr("Billed by month, by product (%1: so far)").arg(OpenMark));
}

} // namespace md::views
