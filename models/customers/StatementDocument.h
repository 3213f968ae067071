// A billing period of one customer as a document to send (docs/export.md,
// "Statements"): a PDF laid out like an invoice preview (who, which period,
// each line in words with its amount, the total, closed or "so far") and a
// workbook of the same lines with the API's fields beside the words. Both
// are written to a file beside the target that becomes it only when whole.
#pragma once

#include "models/common/ExportRow.h"
#include "models/customers/ChargePeriodsModel.h"
#include "services/api/Result.h"

#include <QCoreApplication>
#include <QDateTime>

class QPagedPaintDevice;

namespace md::models {

class StatementDocument final
{
    Q_DECLARE_TR_FUNCTIONS(StatementDocument)

public:
    StatementDocument(QString customerId, ChargePeriodsModel::Period period, QDateTime generatedAt);

    void setWorkspace(const QString &workspace) { m_workspace = workspace; }

    // "statement-acme-2026-11.pdf" and the like.
    QString suggestedName(const QString &extension) const;

    api::Result<api::Done> writePdf(const QString &path) const;
    api::Result<api::Done> writeWorkbook(const QString &path) const;
    // Draws it on any paged device (a printer, too): the pages it took.
    api::Result<int> draw(QPagedPaintDevice *device) const;

    static ExportColumns columns();
    static ExportRow rowOf(const api::ChargeLine &line);
    // A line kind in the reader's words.
    static QString kindWord(api::ChargeKind kind);

private:
    QString m_customerId;
    ChargePeriodsModel::Period m_period;
    QDateTime m_generatedAt;
    QString m_workspace;
};

} // namespace md::models
