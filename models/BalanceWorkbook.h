// An Excel workbook of balances (docs/export.md): the rows on the first
// sheet with typed cells (amounts as numbers with the decimals they have,
// dates as dates, booleans as booleans), a frozen header and columns as wide
// as their contents; the filter's totals on the second sheet. Written with
// libxlsxwriter in its constant-memory mode, row by row, to a temporary
// file beside the target that becomes the target only when complete.
#pragma once

#include "services/api/Balance.h"
#include "services/api/BalanceTotals.h"
#include "services/api/Result.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

#include <memory>

struct lxw_workbook;
struct lxw_worksheet;
struct lxw_format;

namespace md::models {

class BalanceWorkbook final
{
    Q_DECLARE_TR_FUNCTIONS(BalanceWorkbook)

public:
    // A spreadsheet number keeps 15 significant digits: an amount with more
    // is written as text, digit for digit, so no cell ever holds a value
    // other than the one exported.
    static constexpr int NumberDigits = 15;

    static api::Result<std::unique_ptr<BalanceWorkbook>> create(const QString &path);
    ~BalanceWorkbook(); // without save(): nothing is left behind
    Q_DISABLE_COPY_MOVE(BalanceWorkbook)

    void writeTotals(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy);
    void writeRows(const QList<api::BalanceRow> &rows);
    // Zips the workbook and gives it its name: seconds for a million rows,
    // so callers run it off the GUI thread.
    api::Result<api::Done> save();

    // Whether `amount` fits a spreadsheet number exactly (NumberDigits).
    static bool fitsNumber(const api::Decimal &amount);

private:
    struct Sheet
    {
        lxw_worksheet *sheet = nullptr;
        quint32 row = 0;   // the next row to write
        QList<int> widths; // characters, by column
    };

    BalanceWorkbook(const QString &path, const QString &temporary, lxw_workbook *book);
    void header(Sheet &sheet, const QStringList &names);
    void text(Sheet &sheet, int column, const QString &value);
    void amount(Sheet &sheet, int column, const api::Decimal &value);
    void integer(Sheet &sheet, int column, qint64 value);
    void time(Sheet &sheet, int column, std::optional<qint64> ms);
    void fit(Sheet &sheet, int column, qsizetype characters);

    QString m_path;
    QString m_temporary;
    lxw_workbook *m_book;
    Sheet m_rows;
    Sheet m_totals;
    lxw_format *m_header;
    lxw_format *m_date;
    QList<lxw_format *> m_amounts; // by number of decimals, 0 to 9
};

} // namespace md::models
