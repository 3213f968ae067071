#include "views/usage/UsageChart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>

namespace md::views {

using namespace Qt::StringLiterals;
using models::UsageSeries;

UsageChart::UsageChart(QWidget *parent)
    : QWidget(parent)
    , m_groupBy(new QComboBox(this))
    , m_metric(new QComboBox(this))
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_empty(new QLabel(tr("No usage events match the filter."), this))
    , m_partialNote(new QLabel(this))
{
    m_groupBy->addItem(tr("Stacked by model"), int(api::UsageGroupBy::Model));
    m_groupBy->addItem(tr("Stacked by customer"), int(api::UsageGroupBy::Customer));
    m_groupBy->addItem(tr("Stacked by feature"), int(api::UsageGroupBy::Feature));
    m_metric->addItem(tr("Cost (USD)"));
    m_metric->addItem(tr("Tokens"));
    m_metric->addItem(tr("Units used (other features)"));
    m_groupBy->setAccessibleName(tr("Chart stacking"));
    m_metric->setAccessibleName(tr("Chart measure"));
    connect(m_groupBy, &QComboBox::currentIndexChanged, this,
            [this] { Q_EMIT groupByChanged(groupBy()); });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &UsageChart::redraw);

    m_chart->legend()->setAlignment(Qt::AlignRight);
    m_chart->setMargins(QMargins(4, 4, 4, 4));
    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);
    m_empty->setAlignment(Qt::AlignCenter);
    m_partialNote->setText(
        tr("%1 Partial: the range covers only part of it (its first day from this hour on; "
           "today, so far).")
            .arg(PartialMark));
    m_partialNote->setObjectName(QStringLiteral("partialNote"));

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_groupBy);
    controls->addWidget(m_metric);
    controls->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty);
    layout->addWidget(m_partialNote);
    redraw();
}

void UsageChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        redraw();
}

void UsageChart::setTotals(const std::optional<api::UsageTotals> &totals)
{
    m_totals = totals;
    redraw();
}

api::UsageGroupBy UsageChart::groupBy() const
{
    return api::UsageGroupBy(m_groupBy->currentData().toInt());
}

bool UsageChart::showsPartialNote() const
{
    return !m_partialNote->isHidden();
}

QStringList UsageChart::seriesNames() const
{
    QStringList names;
    for (const QAbstractSeries *series : m_chart->series())
        for (const QBarSet *set : static_cast<const QStackedBarSeries *>(series)->barSets())
            names.append(set->label());
    return names;
}

QStringList UsageChart::timeLabels() const
{
    QStringList labels;
    for (QAbstractAxis *axis : m_chart->axes(Qt::Horizontal))
        for (QString label : static_cast<QBarCategoryAxis *>(axis)->categories())
            labels.append(label.remove(QChar(0x200B)));
    return labels;
}

void UsageChart::redraw()
{
    m_chart->removeAllSeries();
    // Axis numbers in the console's language: 2,08 in German, not 2.08.
    m_chart->setLocalizeNumbers(true);
    m_chart->setLocale(locale());
    for (QAbstractAxis *axis : m_chart->axes())
        m_chart->removeAxis(axis);
    // The chart follows the window's light or dark palette.
    m_chart->setTheme(palette().color(QPalette::Window).lightness() < 128
                          ? QChart::ChartThemeDark
                          : QChart::ChartThemeLight);
    const int metric = m_metric->currentIndex(); // cost, tokens, units
    const api::UsageTotals shown = m_totals.value_or(api::UsageTotals{});
    const qint64 period = UsageSeries::periodFor(shown);
    const auto groups = UsageSeries::build(shown, tr("(none)"), tr("Other"), period);
    m_empty->setVisible(groups.isEmpty());
    m_view->setVisible(!groups.isEmpty());
    m_partialNote->hide();
    if (groups.isEmpty())
        return;
    const QSet<qint64> partial = UsageSeries::partialPeriods(shown, period);
    // Every period from the first to the last, empty ones included.
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = std::numeric_limits<qint64>::min();
    for (const auto &points : groups) {
        first = std::min(first, points.firstKey());
        last = std::max(last, points.lastKey());
    }
    // Each period's first day, with its year when the chart spans more than
    // one; at most MaxLabels named, the rest blank, and a partial period
    // always named and marked. The axis keeps only distinct names, so a
    // blank one is made distinct by zero-width spaces.
    const QDate firstDay = QDateTime::fromMSecsSinceEpoch(first, Qt::UTC).date();
    const QDate lastDay = QDateTime::fromMSecsSinceEpoch(last, Qt::UTC).date();
    const QString format = firstDay.year() == lastDay.year() ? u"d MMM"_s : u"d MMM yy"_s;
    const qint64 periods = (last - first) / period + 1;
    const qint64 every = (periods + MaxLabels - 1) / MaxLabels;
    QStringList categories;
    for (qint64 start = first, index = 0; start <= last; start += period, ++index) {
        const bool part = partial.contains(start);
        const QString name =
            locale().toString(QDateTime::fromMSecsSinceEpoch(start, Qt::UTC).date(), format);
        categories.append(part                 ? name + PartialMark
                          : index % every == 0 ? name
                                               : QString(qsizetype(index + 1), QChar(0x200B)));
        if (part)
            m_partialNote->show();
    }
    auto *series = new QStackedBarSeries;
    double top = 0;
    QList<double> totals(categories.size(), 0.0);
    for (auto group = groups.cbegin(); group != groups.cend(); ++group) {
        auto *set = new QBarSet(group.key());
        int index = 0;
        for (qint64 start = first; start <= last; start += period, ++index) {
            const UsageSeries::Point point = group.value().value(start);
            // Only drawing turns an exact sum into a double.
            const double y = metric == 0   ? point.cost.toString().toDouble()
                             : metric == 1 ? double(point.tokens)
                                           : point.units.toString().toDouble();
            *set << y;
            totals[index] += y;
        }
        series->append(set);
    }
    for (double total : std::as_const(totals))
        top = std::max(top, total);
    m_chart->addSeries(series);
    auto *axisX = new QBarCategoryAxis;
    axisX->append(categories);
    if (periods / every > 8)
        axisX->setLabelsAngle(-90); // upright labels overlap beyond eight
    auto *axisY = new QValueAxis;
    axisY->setLabelFormat(metric == 1 ? u"%.0f"_s : u"%.2f"_s);
    axisY->setRange(0, top > 0 ? top * 1.1 : 1);
    m_chart->addAxis(axisX, Qt::AlignBottom);
    m_chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
}

} // namespace md::views
