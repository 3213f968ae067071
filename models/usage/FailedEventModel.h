// Asynchronous track_tokens calls that were accepted and then could not be
// applied (docs/api.md, "Failed events"), newest first, paged on demand.
// The Usage page lists them with their reason, to retry or discard.
#pragma once

#include "services/backend/BillingBackend.h"

#include "models/common/PagedTableModel.h"

namespace md::models {

class FailedEventModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FailedEventModel)

public:
    enum Column { FailedColumn, CustomerColumn, ModelColumn, ReasonColumn, ColumnCount };
    static constexpr int RawValueRole = Qt::UserRole;

    explicit FailedEventModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void reload() { restart(); }
    // Puts failed calls back to be applied, or drops them; the answer says
    // which ids were found.
    backend::Reply<api::FailedEventOutcome> retry(const QStringList &ids);
    backend::Reply<api::FailedEventOutcome> discard(const QStringList &ids);
    const QList<api::FailedEvent> &events() const { return m_rows; }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    QList<api::FailedEvent> m_rows;
};

} // namespace md::models
