// The Usage page's chart: cost or tokens per day (per week over longer
// spans) as bars stacked by model, customer or feature (Qt Charts), from
// the totals usage_events.totals answers (UsageSeries). A period the
// filter's range covers only in part (today, so far) is marked with "*".
#pragma once

#include "models/usage/UsageSeries.h"

#include <QWidget>

class QComboBox;
class QLabel;

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
QT_END_NAMESPACE

namespace md::views {

class UsageChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageChart)

public:
    explicit UsageChart(QWidget *parent = nullptr);

    // What to draw; nullopt: nothing yet, or the filter's totals failed.
    void setTotals(const std::optional<api::UsageTotals> &totals);
    api::UsageGroupBy groupBy() const;
    // The stacked groups drawn, by name (for tests and the legend).
    QStringList seriesNames() const;
    // The time axis's labels as drawn (blank ones empty).
    QStringList timeLabels() const;
    QChart *chart() const { return m_chart; }
    // At most this many periods are named on the time axis.
    static constexpr qint64 MaxLabels = 12;
    // What marks a period the range covers only in part, after its label.
    static constexpr QChar PartialMark = u'*';
    bool showsPartialNote() const;

Q_SIGNALS:
    // The user chose another stacking: the totals must be asked for again.
    void groupByChanged(api::UsageGroupBy groupBy);

protected:
    void changeEvent(QEvent *event) override;

private:
    void redraw();

    QComboBox *m_groupBy;
    QComboBox *m_metric;
    QChartView *m_view;
    QChart *m_chart;
    QLabel *m_empty;
    QLabel *m_partialNote;
    std::optional<api::UsageTotals> m_totals;
};

} // namespace md::views
