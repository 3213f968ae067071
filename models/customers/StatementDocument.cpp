#include "models/customers/StatementDocument.h"

#include "models/common/AmountFormat.h"
#include "models/common/Workbook.h"
#include "models/customers/ChargeLinesModel.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

QFont sized(qreal points, bool bold = false)
{
    QFont font;
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

} // namespace

StatementDocument::StatementDocument(QString customerId, ChargePeriodsModel::Period period,
                                     QDateTime generatedAt)
    : m_customerId(std::move(customerId))
    , m_period(std::move(period))
    , m_generatedAt(std::move(generatedAt))
{}

QString StatementDocument::suggestedName(const QString &extension) const
{
    const QString month =
        QDateTime::fromMSecsSinceEpoch(m_period.start, Qt::UTC).toString(u"yyyy-MM"_s);
    return u"statement-%1-%2.%3"_s.arg(m_customerId, month, extension);
}

ExportColumns StatementDocument::columns()
{
    return {{u"kind"_s, tr("Kind")},
            {u"description"_s, ChargeLinesModel::title(ChargeLinesModel::WhatColumn)},
            {u"plan_id"_s, tr("Plan")},
            {u"feature_id"_s, tr("Feature")},
            {u"entity_id"_s, tr("Entity")},
            {u"balance_id"_s, tr("Balance")},
            {u"quantity"_s, ChargeLinesModel::title(ChargeLinesModel::QuantityColumn)},
            {u"billable_units"_s, ChargeLinesModel::title(ChargeLinesModel::BilledColumn)},
            {u"amount"_s, ChargeLinesModel::title(ChargeLinesModel::AmountColumn)}};
}

QString StatementDocument::kindWord(api::ChargeKind kind)
{
    switch (kind) {
    case api::ChargeKind::Fixed:
        return tr("fixed price");
    case api::ChargeKind::Prepaid:
        return tr("prepaid purchase");
    case api::ChargeKind::Credits:
        return tr("credit purchase");
    case api::ChargeKind::Usage:
        break;
    }
    return tr("usage");
}

ExportRow StatementDocument::rowOf(const api::ChargeLine &line)
{
    const auto text = [](const std::optional<QString> &value) -> ExportCell {
        return value ? ExportCell(*value) : ExportCell();
    };
    return {ExportWord{QString(api::toWire(line.kind)), kindWord(line.kind)},
            ChargeLinesModel::words(line),
            text(line.planId),
            text(line.featureId),
            text(line.entityId),
            text(line.balanceId),
            line.quantity,
            line.billableUnits ? ExportCell(*line.billableUnits) : ExportCell(),
            line.amount};
}

api::Result<api::Done> StatementDocument::writeWorkbook(const QString &path) const
{
    auto book = Workbook::create(path, {{tr("Statement"), columns()}});
    if (!book)
        return book.error();
    for (const api::ChargeLine &line : m_period.lines)
        book.value()->append(0, rowOf(line));
    ExportRow total(columns().size());
    total[1] = tr("Total (%1)").arg(m_period.currency.toUpper());
    total[8] = m_period.total;
    book.value()->append(0, total);
    return book.value()->save();
}

api::Result<api::Done> StatementDocument::writePdf(const QString &path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return api::ApiError::local(u"export_unwritable"_s,
                                    tr("%1 cannot be written: %2").arg(path, file.errorString()));
    {
        QPdfWriter writer(&file);
        writer.setCreator(u"Meterdesk"_s);
        writer.setTitle(tr("Statement for %1").arg(m_customerId));
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(18, 18, 18, 18), QPageLayout::Millimeter);
        if (auto drawn = draw(&writer); !drawn)
            return drawn.error();
    }
    if (!file.commit())
        return api::ApiError::local(u"export_unwritable"_s,
                                    tr("%1 cannot be written: %2").arg(path, file.errorString()));
    return api::Done{};
}

api::Result<int> StatementDocument::draw(QPagedPaintDevice *device) const
{
    QPainter painter;
    if (!painter.begin(device))
        return api::ApiError::local(u"export_unwritable"_s,
                                    tr("The statement cannot be drawn on this device."));
    const QFont title = sized(16, true);
    const QFont body = sized(10);
    const QFont strong = sized(10, true);
    const QFontMetricsF metrics(body, device);
    const qreal width = device->width();
    const qreal height = device->height();
    const qreal line = metrics.height() * 1.6;
    const qreal amountWidth = metrics.horizontalAdvance(u"0"_s) * 18;
    const qreal quantityWidth = metrics.horizontalAdvance(u"0"_s) * 14;
    const QColor muted(0x55, 0x55, 0x55);
    int pages = 1;
    qreal y = 0;
    const auto text = [&](const QRectF &box, Qt::Alignment align, const QString &words) {
        painter.drawText(
            box, align | Qt::AlignVCenter,
            QFontMetricsF(painter.font(), device).elidedText(words, Qt::ElideRight, box.width()));
    };
    const auto row = [&](const QString &what, const QString &quantity, const QString &amount) {
        text(QRectF(0, y, width - amountWidth - quantityWidth, line), Qt::AlignLeft, what);
        text(QRectF(width - amountWidth - quantityWidth, y, quantityWidth, line), Qt::AlignRight,
             quantity);
        text(QRectF(width - amountWidth, y, amountWidth, line), Qt::AlignRight, amount);
        y += line;
    };
    const auto header = [&] {
        painter.setFont(strong);
        row(ChargeLinesModel::title(ChargeLinesModel::WhatColumn),
            ChargeLinesModel::title(ChargeLinesModel::QuantityColumn),
            tr("Amount (%1)").arg(m_period.currency.toUpper()));
        painter.drawLine(QPointF(0, y), QPointF(width, y));
        painter.setFont(body);
    };

    painter.setFont(title);
    const qreal titleHeight = QFontMetricsF(title, device).height() * 1.4;
    painter.drawText(QRectF(0, 0, width, titleHeight), Qt::AlignLeft | Qt::AlignVCenter,
                     m_period.closedAt ? tr("Statement") : tr("Charges so far"));
    y = titleHeight;
    painter.setFont(body);
    painter.setPen(muted);
    const QStringList facts{
        tr("Customer: %1").arg(m_customerId),
        tr("Period: %1").arg(ChargePeriodsModel::periodInWords(m_period.start, m_period.end)),
        m_period.closedAt ? tr("Closed %1").arg(formatTimestamp(*m_period.closedAt))
                          : tr("Open period, so far as of %1")
                                .arg(QLocale().toString(m_generatedAt, QLocale::ShortFormat)),
        m_workspace.isEmpty() ? QString() : tr("Workspace: %1").arg(m_workspace)};
    for (const QString &fact : facts)
        if (!fact.isEmpty()) {
            text(QRectF(0, y, width, line), Qt::AlignLeft, fact);
            y += line;
        }
    if (!m_period.statementId.isEmpty()) {
        text(QRectF(0, y, width, line), Qt::AlignLeft,
             tr("Statement %1").arg(m_period.statementId));
        y += line;
    }
    painter.setPen(Qt::black);
    y += line / 2;
    header();
    for (const api::ChargeLine &charge : m_period.lines) {
        if (y + 2 * line > height) {
            if (!device->newPage())
                return api::ApiError::local(u"export_unwritable"_s,
                                            tr("Page %1 could not be started.").arg(pages + 1));
            ++pages;
            y = 0;
            header();
        }
        row(ChargeLinesModel::words(charge), formatAmount(charge.quantity, QLocale(), 0),
            formatAmount(charge.amount));
    }
    if (m_period.lines.isEmpty())
        row(tr("Nothing owed in this period."), QString(), formatAmount(api::Decimal()));
    painter.drawLine(QPointF(0, y), QPointF(width, y));
    painter.setFont(strong);
    row(tr("Total"), QString(), formatAmount(m_period.total));
    return pages;
}

} // namespace md::models
