// An Excel workbook of exported rows (docs/export.md): each sheet a header
// row of its columns' titles, frozen, then typed cells (amounts as numbers
// in one format, times as dates, booleans as booleans, words as the console
// says them), columns as wide as their contents. Written with libxlsxwriter
// in its constant-memory mode, row by row, to a new file beside the target
// that becomes the target only when complete.
#pragma once

#include "models/common/ExportRow.h"
#include "services/api/Result.h"

#include <QCoreApplication>

#include <memory>

struct lxw_workbook;
struct lxw_worksheet;
struct lxw_format;

namespace md::models {

class Workbook final
{
    Q_DECLARE_TR_FUNCTIONS(Workbook)

public:
    // A spreadsheet number keeps 15 significant digits: an amount with more
    // is written as text, digit for digit, so no cell ever holds a value
    // other than the one exported.
    static constexpr int NumberDigits = 15;

    struct Sheet
    {
        QString name;
        ExportColumns columns; // the header row is their titles
    };

    static api::Result<std::unique_ptr<Workbook>> create(const QString &path,
                                                         const QList<Sheet> &sheets);
    ~Workbook(); // without save(): nothing is left behind
    Q_DISABLE_COPY_MOVE(Workbook)

    // Rows of one sheet go in order; sheets may take turns.
    void append(int sheet, const ExportRow &row);
    // Zips the workbook and gives it its name: seconds for a million rows,
    // so callers run it off the GUI thread.
    api::Result<api::Done> save();

    // Whether `amount` fits a spreadsheet number exactly (NumberDigits).
    static bool fitsNumber(const api::Decimal &amount);
    static bool isWorkbookPath(const QString &path);

private:
    struct Written
    {
        lxw_worksheet *sheet = nullptr;
        quint32 row = 0;   // the next row to write
        QList<int> widths; // characters, by column
    };

    Workbook(const QString &path, const QString &temporary, lxw_workbook *book);
    void write(Written &sheet, int column, const ExportCell &cell);
    void fit(Written &sheet, int column, qsizetype characters);

    QString m_path;
    QString m_temporary;
    lxw_workbook *m_book;
    QList<Written> m_sheets;
    lxw_format *m_header;
    lxw_format *m_date;
    lxw_format *m_integer;
    lxw_format *m_amount;
    lxw_format *m_amountText; // an amount of more digits than a number keeps
};

} // namespace md::models
