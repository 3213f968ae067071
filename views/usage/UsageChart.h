// The Usage page's chart: cost or tokens per day (per week over longer
// spans) as bars stacked by model, customer or feature (Qt Charts), from
// UsageSeries sums.
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

    void setEvents(const QList<api::UsageEvent> &events);
    // The stacked groups drawn, by name (for tests and the legend).
    QStringList seriesNames() const;
    // The time axis's labels as drawn (blank ones empty).
    QStringList timeLabels() const;
    QChart *chart() const { return m_chart; }
    // At most this many periods are named on the time axis.
    static constexpr qint64 MaxLabels = 12;

protected:
    void changeEvent(QEvent *event) override;

private:
    void redraw();

    QComboBox *m_groupBy;
    QComboBox *m_metric;
    QChartView *m_view;
    QChart *m_chart;
    QLabel *m_empty;
    QList<api::UsageEvent> m_events;
};

} // namespace md::views
