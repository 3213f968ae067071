// Balances from balances.list as a table. Pages are fetched on demand with
// the cursor the model holds (canFetchMore/fetchMore); pages that come back
// empty while has_more is true are followed at once. Meanwhile it asks
// balances.pages for the filter's row count and where each page starts;
// once that arrives the table has all its rows at once (a true scrollbar)
// and fetches the pages the view shows, wherever they are, keeping at most
// MaxWindowPages of them (docs/performance.md, "Windowed table").
#pragma once

#include "models/balances/BalanceRowStore.h"
#include "services/api/ListBalances.h"
#include "services/backend/BillingBackend.h"

#include "models/common/PagedTableModel.h"

#include <QSet>

namespace md::models {

class BalanceListModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(BalanceListModel)

public:
    enum Column {
        CustomerColumn,
        EntityColumn,
        FeatureColumn,
        PlanColumn,
        IncludedColumn,
        PrepaidColumn,
        RemainingColumn,
        UsageColumn,
        UnlimitedColumn,
        IntervalColumn,
        ResetColumn,
        ExpiresColumn,
        StatusColumn,
        RolloversColumn,
        CreatedColumn,
        ColumnCount
    };
    // The raw value of a cell, for sorting and copying: amounts as exact
    // decimal text, times as milliseconds.
    static constexpr int RawValueRole = Qt::UserRole;

    explicit BalanceListModel(backend::BillingBackend *backend, QObject *parent = nullptr);
    ~BalanceListModel() override;

    // Replaces the filter and starts again from the first page.
    void setRequest(const api::ListBalancesRequest &request);
    const api::ListBalancesRequest &request() const { return m_request; }
    // Shows an adjustment written through the detail pane in the row it
    // changed, if that row is held, without asking again.
    void applyAdjustment(const api::LedgerEntry &entry);
    void refresh();

    // The row, or nullopt while its page is on its way (asked for now).
    std::optional<api::BalanceRow> balanceAt(int row) const;
    api::BalanceRow balance(int row) const { return balanceAt(row).value_or(api::BalanceRow()); }
    bool isLoaded(int row) const;
    // Whether the count is known and rows are fetched where they are shown.
    bool isWindowed() const { return m_windowed; }
    // Pages held at most in windowed mode: 50 × 200 rows, whatever the table's size.
    static constexpr qsizetype MaxWindowPages = 50;
    qsizetype heldPages() const { return m_window.size(); }
    qsizetype pagesInFlight() const { return m_inFlight.size(); }
    // Whether the count and page starts were asked for and have not come.
    bool isAskingPages() const { return m_askingPages; }

    int rowCount(const QModelIndex &parent = {}) const override;
    bool canFetchMore(const QModelIndex &parent) const override;

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString intervalName(api::ResetInterval interval);
    // The server's order a column's header sorts by, if any (Customer,
    // Remaining, Usage, Next reset), and the column of an order.
    static std::optional<api::BalanceOrder> orderOf(int column);
    static int columnOf(api::BalanceOrder order);
    // The row as the API sends it, indented: for engineers, one click away.
    static QString rawText(const api::BalanceRow &row);
    // A column's title and a row's cell in it, as the table shows them
    // (BalanceListCells.cpp); the PDF report shows rows the same way.
    static QString columnTitle(int column);
    // `decimals`: the fraction digits amounts show at least.
    static QVariant cell(const api::BalanceRow &row, int column, int role = Qt::DisplayRole,
                         int decimals = 2);
    // The fraction digits this table shows a feature's amounts with: the
    // most any of its rows read so far needs, 2 at least, so one feature's
    // column reads alike ("25.4328" beside "60.6800", not "60.68").
    int decimalsOf(const QString &featureId) const { return m_decimals.value(featureId, 2); }

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override;
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    void askPages();
    // Stops the scan for the previous filter's count (StopCheck.h).
    void stopAskingPages();
    void useWindows(const api::BalancePages &pages);
    void want(qsizetype page) const;
    void fetchWanted();
    void keepWithinLimit();
    // Notes the decimals `rows` need; every amount is shown again when a
    // feature's grew.
    void noteDecimals(const QList<api::BalanceRow> &rows);

    backend::BillingBackend *m_backend;
    api::ListBalancesRequest m_request;
    BalanceRowStore m_rows; // until the count is known: the rows so far, in order
    quint64 m_pagesGeneration = 0;
    backend::Reply<api::BalancePages> m_pagesReply; // the newest ask
    bool m_windowed = false;
    bool m_askingPages = false;
    qint64 m_count = 0;
    QStringList m_starts; // the cursor of each page
    QHash<qsizetype, BalanceRowStore> m_window;
    // Asked for from data() (const): pages wanted, newest last, and when each
    // held page was last shown, for dropping the longest unseen.
    mutable QList<qsizetype> m_wanted;
    mutable QHash<qsizetype, quint64> m_seen;
    mutable quint64 m_tick = 0;
    mutable bool m_fetchQueued = false;
    QSet<qsizetype> m_inFlight;
    QHash<QString, int> m_decimals; // by feature: only ever grows
};

} // namespace md::models
