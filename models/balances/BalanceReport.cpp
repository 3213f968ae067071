#include "models/balances/BalanceReport.h"

#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/common/AmountFormat.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPagedPaintDevice>
#include <QPainter>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// Point sizes: printed pages are read at arm's length.
constexpr qreal BodyPoints = 8;
constexpr qreal SmallPoints = 7;
constexpr qreal HeadingPoints = 11;
constexpr qreal TitlePoints = 16;

QFont sized(qreal points, bool bold = false)
{
    QFont font;
    font.setPointSizeF(points);
    font.setBold(bold);
    // No ligatures: "fi" drawn as one glyph reads back as U+FB01, and a
    // search of the PDF for "filter" would not find it. Qt shapes without
    // them once any letter spacing is set (Qt 6.4 has no QFont::setFeature).
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.02); // 1/64 px, the least it stores
    return font;
}

} // namespace

struct BalanceReport::Table
{
    QStringList titles;
    QList<bool> right; // amounts and counts are right-aligned
};

struct BalanceReport::Block
{
    enum Kind { Title, Line, Heading, Gap, Row } kind;
    QStringList cells; // one for text blocks
    int table = -1;    // for rows
    bool strong = false;
};

struct BalanceReport::Layout
{
    QList<Table> tables;
    QList<QList<qreal>> widths; // by table, by column
    QList<Block> blocks;
    QList<QList<int>> pages; // the blocks on each page
};

BalanceReport::BalanceReport(const api::ListBalancesRequest &filter, QDateTime generatedAt)
    : m_filter(filter)
    , m_generatedAt(std::move(generatedAt))
{}

void BalanceReport::setTotals(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy)
{
    m_totals = totals;
    m_groupBy = groupBy;
}

QList<int> BalanceReport::columns()
{
    using M = BalanceListModel;
    return {M::CustomerColumn, M::EntityColumn,  M::FeatureColumn,   M::PlanColumn,
            M::IncludedColumn, M::PrepaidColumn, M::RemainingColumn, M::UsageColumn,
            M::IntervalColumn, M::ResetColumn,   M::ExpiresColumn,   M::StatusColumn};
}

void BalanceReport::addRows(const QList<api::BalanceRow> &rows)
{
    const QList<int> shown = columns();
    for (const api::BalanceRow &row : rows) {
        if (isFull())
            return;
        QStringList cells;
        for (int column : shown)
            cells.append(BalanceListModel::cell(row, column).toString());
        m_rows.append(cells);
    }
}

QString BalanceReport::filterInWords(const api::ListBalancesRequest &filter)
{
    QStringList words;
    if (!filter.customerId)
        words.append(tr("All customers"));
    else if (filter.entityId)
        words.append(tr("Customer %1, entity %2").arg(*filter.customerId, *filter.entityId));
    else
        words.append(tr("Customer %1").arg(*filter.customerId));
    words.append(filter.featureId ? tr("feature %1").arg(*filter.featureId) : tr("every feature"));
    if (!filter.planId)
        words.append(tr("any plan"));
    else if (!*filter.planId)
        words.append(tr("no plan"));
    else
        words.append(tr("plan %1").arg(**filter.planId));
    const bool active = filter.includes(api::BalanceStatus::Active);
    const bool expired = filter.includes(api::BalanceStatus::Expired);
    words.append(active && expired ? tr("active and expired balances")
                 : expired         ? tr("expired balances")
                                   : tr("active balances"));
    if (filter.resetsBefore)
        words.append(tr("resetting before %1").arg(formatDate(*filter.resetsBefore)));
    return words.join(u" · "_s);
}

QString BalanceReport::heading(api::TotalsGroupBy groupBy)
{
    switch (groupBy) {
    case api::TotalsGroupBy::Plan:
        return tr("Totals by plan");
    case api::TotalsGroupBy::Customer:
        return tr("Totals by customer");
    case api::TotalsGroupBy::ResetMonth:
        return tr("Totals by month of next reset");
    case api::TotalsGroupBy::Feature:
        break;
    }
    return tr("Totals by feature");
}

QList<BalanceReport::Block> BalanceReport::blocks() const
{
    const QLocale locale;
    QList<Block> blocks;
    const auto text = [&](Block::Kind kind, const QString &line) { blocks.append({kind, {line}}); };
    text(Block::Title, tr("Balances report"));
    if (!m_workspace.isEmpty())
        text(Block::Line, m_workspace);
    text(Block::Line, tr("Filter: %1").arg(filterInWords(m_filter)));
    text(Block::Line, tr("Generated %1").arg(locale.toString(m_generatedAt, QLocale::LongFormat)));
    text(Block::Gap, {});

    if (m_totals) {
        text(Block::Heading, heading(m_groupBy));
        // Amounts of different features are left out, as on the console.
        const api::BalanceTotalsRequest request{m_filter, m_groupBy};
        const bool amounts = BalanceTotalsModel::groupsInOneUnit(request);
        for (const api::TotalsGroup &group : m_totals->groups) {
            QStringList cells;
            for (int column = 0; column < BalanceTotalsModel::ColumnCount; ++column)
                cells.append(BalanceTotalsModel::text(group, column, amounts, m_groupBy));
            blocks.append({Block::Row, cells, 0});
        }
        const bool totalAmounts = BalanceTotalsModel::totalInOneUnit(request, *m_totals);
        QStringList total;
        for (int column = 0; column < BalanceTotalsModel::ColumnCount; ++column)
            total.append(BalanceTotalsModel::text({std::nullopt, m_totals->total}, column,
                                                  totalAmounts, m_groupBy));
        total[BalanceTotalsModel::Key] = tr("Total");
        blocks.append({Block::Row, total, 0, true});
        if (const QString note = BalanceTotalsModel::unitNote(request, *m_totals); !note.isEmpty())
            text(Block::Line, note);
    } else {
        text(Block::Heading, tr("Totals"));
        text(Block::Line, tr("The totals could not be computed; the rows follow."));
    }
    text(Block::Gap, {});

    text(Block::Heading, tr("Balances"));
    if (m_rows.isEmpty())
        text(Block::Line, tr("No balances match this filter."));
    for (const QStringList &row : m_rows)
        blocks.append({Block::Row, row, 1});
    if (isFull()) {
        text(Block::Gap, {});
        text(Block::Line,
             m_totals ? tr("Only the first %L1 of %L2 balances are listed. Export to Excel or CSV "
                           "for every row.")
                            .arg(m_rows.size())
                            .arg(m_totals->total.balances)
                      : tr("Only the first %L1 balances are listed. Export to Excel or CSV for "
                           "every row.")
                            .arg(m_rows.size()));
    }
    return blocks;
}

BalanceReport::Layout BalanceReport::layOut(QPainter &painter) const
{
    QPaintDevice *device = painter.device();
    const QFontMetricsF body(sized(BodyPoints), device);
    const QFontMetricsF strong(sized(BodyPoints, true), device);
    const QFontMetricsF small(sized(SmallPoints), device);
    const QFontMetricsF heading(sized(HeadingPoints, true), device);
    const QFontMetricsF title(sized(TitlePoints, true), device);
    const qreal rowHeight = body.height() * 1.4;
    const qreal padding = body.averageCharWidth();
    const qreal width = device->width();
    const qreal height = device->height();

    Layout layout;
    Table totals;
    for (int column = 0; column < BalanceTotalsModel::ColumnCount; ++column) {
        totals.titles.append(BalanceTotalsModel::columnTitle(column, m_groupBy));
        totals.right.append(column != BalanceTotalsModel::Key);
    }
    Table rows;
    for (int column : columns()) {
        rows.titles.append(BalanceListModel::columnTitle(column));
        rows.right.append(column >= BalanceListModel::IncludedColumn &&
                          column <= BalanceListModel::UsageColumn);
    }
    layout.tables = {totals, rows};
    layout.blocks = blocks();

    // Columns as wide as their widest cell; narrowed alike (and their text
    // elided) when the page is not wide enough.
    for (const Table &table : std::as_const(layout.tables)) {
        QList<qreal> widths;
        for (const QString &titleText : table.titles)
            widths.append(strong.horizontalAdvance(titleText) + 2 * padding);
        layout.widths.append(widths);
    }
    for (const Block &block : std::as_const(layout.blocks)) {
        if (block.kind != Block::Row)
            continue;
        QList<qreal> &widths = layout.widths[block.table];
        const QFontMetricsF &metrics = block.strong ? strong : body;
        for (qsizetype column = 0; column < block.cells.size(); ++column)
            widths[column] =
                qMax(widths[column], metrics.horizontalAdvance(block.cells[column]) + 2 * padding);
    }
    for (QList<qreal> &widths : layout.widths) {
        qreal sum = 0;
        for (qreal w : std::as_const(widths))
            sum += w;
        if (sum > width)
            for (qreal &w : widths)
                w *= width / sum;
    }

    // Pages: a running header and a footer on each; a table's column titles
    // at its start and again at the top of every page it continues on; a
    // heading never alone at the bottom of a page.
    const qreal top = small.height() * 2;
    const qreal bottom = height - small.height() * 2;
    const auto heightOf = [&](const Block &block) -> qreal {
        switch (block.kind) {
        case Block::Title:
            return title.height() * 1.6;
        case Block::Heading:
            return heading.height() * 1.6;
        case Block::Gap:
            return body.height();
        case Block::Line:
        case Block::Row:
            return rowHeight;
        }
        return rowHeight;
    };
    layout.pages.append(QList<int>());
    qreal y = top;
    int lastTable = -1;
    for (int i = 0; i < layout.blocks.size(); ++i) {
        const Block &block = layout.blocks.at(i);
        qreal needed = heightOf(block);
        if (block.kind == Block::Row && block.table != lastTable)
            needed += rowHeight; // its column titles
        if (block.kind == Block::Heading && i + 1 < layout.blocks.size())
            needed += 2 * rowHeight;
        if (y + needed > bottom && !layout.pages.last().isEmpty()) {
            layout.pages.append(QList<int>());
            y = top;
            lastTable = -1;
            if (block.kind == Block::Gap)
                continue;
            if (block.kind == Block::Row)
                needed = heightOf(block) + rowHeight;
        }
        layout.pages.last().append(i);
        y += block.kind == Block::Heading ? heightOf(block) : needed;
        lastTable = block.kind == Block::Row ? block.table : -1;
    }
    return layout;
}

api::Result<int> BalanceReport::draw(QPagedPaintDevice *device,
                                     const std::function<void(int, int)> &drawn,
                                     const std::function<bool()> &stopped) const
{
    QPainter painter;
    if (!painter.begin(device))
        return api::ApiError::local(u"report_unwritable"_s,
                                    tr("The report cannot be drawn on this device."));
    const Layout layout = layOut(painter);
    const QFont body = sized(BodyPoints);
    const QFont strong = sized(BodyPoints, true);
    const QFont small = sized(SmallPoints);
    const QFontMetricsF bodyMetrics(body, device);
    const QFontMetricsF smallMetrics(small, device);
    const qreal rowHeight = bodyMetrics.height() * 1.4;
    const qreal padding = bodyMetrics.averageCharWidth();
    const qreal width = device->width();
    const qreal height = device->height();
    const QColor muted(0x55, 0x55, 0x55);
    const QColor stripe(0xf0, 0xf0, 0xf0);
    const int pages = int(layout.pages.size());
    const QString running = m_workspace.isEmpty()
                                ? tr("Meterdesk · Balances report")
                                : tr("Meterdesk · Balances report · %1").arg(m_workspace);
    const QString generated = QLocale().toString(m_generatedAt, QLocale::ShortFormat);

    const auto drawCells = [&](const QStringList &cells, int table, qreal y, bool bold) {
        const QList<qreal> &widths = layout.widths.at(table);
        const Table &shape = layout.tables.at(table);
        painter.setFont(bold ? strong : body);
        const QFontMetricsF metrics(painter.font(), device);
        qreal x = 0;
        for (qsizetype column = 0; column < cells.size(); ++column) {
            const QRectF cell(x + padding, y, widths[column] - 2 * padding, rowHeight);
            const Qt::Alignment align =
                (shape.right[column] ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter;
            painter.drawText(cell, align,
                             metrics.elidedText(cells[column], Qt::ElideRight, cell.width()));
            x += widths[column];
        }
    };

    for (int page = 0; page < pages; ++page) {
        if (stopped && stopped())
            return api::ApiError::local(u"stopped"_s, tr("The report was canceled."));
        if (page > 0 && !device->newPage())
            return api::ApiError::local(
                u"report_unwritable"_s,
                tr("Page %1 of the report could not be started.").arg(page + 1));
        painter.setPen(muted);
        painter.setFont(small);
        const QRectF head(0, 0, width, smallMetrics.height());
        painter.drawText(head, Qt::AlignLeft | Qt::AlignVCenter,
                         smallMetrics.elidedText(running, Qt::ElideRight, width * 0.7));
        painter.drawText(head, Qt::AlignRight | Qt::AlignVCenter, generated);
        painter.drawLine(QPointF(0, head.bottom() + 2), QPointF(width, head.bottom() + 2));
        const QRectF foot(0, height - smallMetrics.height(), width, smallMetrics.height());
        painter.drawText(foot, Qt::AlignRight | Qt::AlignVCenter,
                         tr("Page %1 of %2").arg(page + 1).arg(pages));
        painter.setPen(Qt::black);

        qreal y = smallMetrics.height() * 2;
        int lastTable = -1;
        int stripeIndex = 0;
        for (int index : layout.pages.at(page)) {
            const Block &block = layout.blocks.at(index);
            if (block.kind == Block::Row && block.table != lastTable) {
                const QList<qreal> &widths = layout.widths.at(block.table);
                qreal tableWidth = 0;
                for (qreal w : widths)
                    tableWidth += w;
                drawCells(layout.tables.at(block.table).titles, block.table, y, true);
                y += rowHeight;
                painter.drawLine(QPointF(0, y), QPointF(tableWidth, y));
                stripeIndex = 0;
            }
            lastTable = block.kind == Block::Row ? block.table : -1;
            switch (block.kind) {
            case Block::Title:
            case Block::Heading: {
                const QFont font = block.kind == Block::Title ? sized(TitlePoints, true)
                                                              : sized(HeadingPoints, true);
                painter.setFont(font);
                const QFontMetricsF metrics(font, device);
                painter.drawText(QRectF(0, y, width, metrics.height() * 1.6),
                                 Qt::AlignLeft | Qt::AlignVCenter, block.cells.first());
                y += metrics.height() * 1.6;
                break;
            }
            case Block::Line:
                painter.setFont(body);
                painter.drawText(
                    QRectF(0, y, width, rowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                    bodyMetrics.elidedText(block.cells.first(), Qt::ElideRight, width));
                y += rowHeight;
                break;
            case Block::Gap:
                y += bodyMetrics.height();
                break;
            case Block::Row: {
                if (stripeIndex++ % 2 == 1) {
                    qreal tableWidth = 0;
                    for (qreal w : layout.widths.at(block.table))
                        tableWidth += w;
                    painter.fillRect(QRectF(0, y, tableWidth, rowHeight), stripe);
                }
                drawCells(block.cells, block.table, y, block.strong);
                y += rowHeight;
                break;
            }
            }
        }
        if (drawn)
            drawn(page + 1, pages);
    }
    if (!painter.end())
        return api::ApiError::local(u"report_unwritable"_s,
                                    tr("The report could not be finished."));
    return pages;
}

} // namespace md::models
