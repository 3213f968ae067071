// Tools ▸ Sandbox clock… (docs/user-guide.md, "The sandbox clock"): the
// sandbox's now, and what moving it to a chosen moment would do, one row
// per feature, from the server's own dry run (clock.advance with dry_run);
// then the advance itself. An answer to an older preview is dropped.
#pragma once

#include "models/common/ListTableModel.h"
#include "services/api/SandboxClock.h"

#include <optional>

namespace md::backend {
class BillingBackend;
}

namespace md::models {

class SandboxClockModel final : public ListTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SandboxClockModel)

public:
    enum Column {
        FeatureColumn,
        ResetsColumn,
        RestoredColumn,
        RolloversColumn,
        RolledOverColumn,
        ExpiriesColumn,
        ExpiredColumn,
        ColumnCount
    };

    explicit SandboxClockModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Reads the sandbox's clock; clockRead() or failed() follows.
    void readClock();
    const std::optional<api::ClockReading> &reading() const { return m_reading; }
    // What moving the clock to `to` would do: the rows, then loaded().
    void preview(qint64 to);
    const std::optional<api::ClockAdvanced> &previewed() const { return m_previewed; }
    qint64 previewedTo() const { return m_previewedTo; }
    // Moves it; the answer says what was done.
    QFuture<api::Result<api::ClockAdvanced>> advance(qint64 to);

    // The totals of a dry run or an advance, in words.
    static QString summary(const api::ClockApplied &applied);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void clockRead();

private:
    backend::BillingBackend *m_backend;
    std::optional<api::ClockReading> m_reading;
    std::optional<api::ClockAdvanced> m_previewed;
    qint64 m_previewedTo = 0;
};

} // namespace md::models
