#include "models/common/Workbook.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <xlsxwriter.h>

#include <algorithm>
#include <charconv>
#include <clocale>
#include <cstdio>
#include <locale.h>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

constexpr int MaxColumnWidth = 60;
// Amounts show at least the two decimals the console shows (AmountFormat)
// and every further one they have, up to Decimal::Scale; the places they
// lack are blank, so a column's decimal points line up whatever each holds.
constexpr int ShownDecimals = 2;

// libxlsxwriter prints numbers with snprintf("%.16G"), which follows the C
// library's locale, and a console under a German locale would write "12,5"
// into the file. While one lives, this thread prints numbers the C way.
class CNumbers final
{
public:
    CNumbers()
        : m_c(newlocale(LC_NUMERIC_MASK, "C", locale_t(nullptr)))
        , m_was(m_c ? uselocale(m_c) : locale_t(nullptr))
    {}
    ~CNumbers()
    {
        if (!m_c)
            return;
        uselocale(m_was);
        freelocale(m_c);
    }
    Q_DISABLE_COPY_MOVE(CNumbers)

private:
    locale_t m_c;
    locale_t m_was;
};

// Significant digits of the exact text "-123.4500" → 7.
int significantDigits(const QByteArray &text)
{
    int significant = 0;
    bool leading = true;
    for (const char c : text) {
        if (c < '0' || c > '9')
            continue;
        if (leading && c == '0')
            continue;
        leading = false;
        ++significant;
    }
    return significant;
}

// The characters of "-1234.5" as the amount format shows it: "-1,234.50"
// and the blank places after it.
int shownWidth(const char *text, int length)
{
    const bool negative = length > 0 && text[0] == '-';
    const int whole = int(std::find(text, text + length, '.') - text) - (negative ? 1 : 0);
    return int(negative) + whole + (whole - 1) / 3 + 1 + api::Decimal::Scale;
}

// A new file beside `path` for the workbook, made as any program makes one
// (0666 less the umask; a QTemporaryFile would be 0600, its owner's alone),
// or with the permissions of the file it is to replace, as QSaveFile does.
api::Result<QString> reserveBeside(const QString &path)
{
    const QDir dir = QFileInfo(path).dir();
    for (int attempt = 0;; ++attempt) {
        QFile file(dir.filePath(u".meterdesk-%1.xlsx"_s.arg(QRandomGenerator::global()->generate(),
                                                            8, 16, QLatin1Char('0'))));
        if (file.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
            if (QFile::exists(path))
                file.setPermissions(QFile::permissions(path));
            return file.fileName();
        }
        if (!file.exists() || attempt == 10) // a name taken meanwhile is drawn again
            return api::ApiError::local(
                u"file_unwritable"_s,
                Workbook::tr("Cannot write %1: %2").arg(path, file.errorString()));
    }
}

} // namespace

api::Result<std::unique_ptr<Workbook>> Workbook::create(const QString &path,
                                                        const QList<Sheet> &sheets)
{
    // A name of our own beside the target: renamed over it once complete.
    const api::Result<QString> reserved = reserveBeside(path);
    if (!reserved)
        return reserved.error();
    const QString temporary = reserved.value();
    lxw_workbook_options options{};
    options.constant_memory = LXW_TRUE; // rows go to disk as they are written
    options.use_zip64 = LXW_TRUE;       // a million rows pass 4 GiB of XML
    lxw_workbook *book = workbook_new_opt(QFile::encodeName(temporary).constData(), &options);
    if (!book) {
        QFile::remove(temporary);
        return api::ApiError::local(u"file_unwritable"_s, tr("Cannot write %1").arg(path));
    }
    std::unique_ptr<Workbook> workbook(new Workbook(path, temporary, book));
    for (const Sheet &sheet : sheets) {
        Written written{workbook_add_worksheet(book, sheet.name.toUtf8().constData()), 0, {}};
        for (int column = 0; column < sheet.columns.size(); ++column) {
            const QString &title = sheet.columns.at(column).title;
            worksheet_write_string(written.sheet, 0, lxw_col_t(column), title.toUtf8().constData(),
                                   workbook->m_header);
            workbook->fit(written, column, title.size());
        }
        worksheet_freeze_panes(written.sheet, 1, 0);
        written.row = 1;
        workbook->m_sheets.append(written);
    }
    return workbook;
}

Workbook::Workbook(const QString &path, const QString &temporary, lxw_workbook *book)
    : m_path(path)
    , m_temporary(temporary)
    , m_book(book)
    , m_header(workbook_add_format(book))
    , m_date(workbook_add_format(book))
    , m_integer(workbook_add_format(book))
    , m_amount(workbook_add_format(book))
    , m_amountText(workbook_add_format(book))
{
    format_set_bold(m_header);
    format_set_num_format(m_date, "yyyy-mm-dd hh:mm:ss");
    format_set_num_format(m_integer, "#,##0");
    const QByteArray amount = "#,##0." + QByteArray(ShownDecimals, '0') +
                              QByteArray(api::Decimal::Scale - ShownDecimals, '?');
    format_set_num_format(m_amount, amount.constData());
    format_set_align(m_amountText, LXW_ALIGN_RIGHT); // in line with the numbers around it
}

Workbook::~Workbook()
{
    if (!m_book)
        return;
    lxw_workbook_free(m_book); // abandoned: its temporary files go, nothing is zipped
    QFile::remove(m_temporary);
}

bool Workbook::fitsNumber(const api::Decimal &amount)
{
    char text[api::Decimal::MaxTextLength];
    return significantDigits(QByteArray(text, amount.format(text))) <= NumberDigits;
}

bool Workbook::isWorkbookPath(const QString &path)
{
    return path.endsWith(u".xlsx"_s, Qt::CaseInsensitive);
}

void Workbook::fit(Written &sheet, int column, qsizetype characters)
{
    if (sheet.widths.size() <= column)
        sheet.widths.resize(column + 1);
    sheet.widths[column] =
        std::max(sheet.widths.at(column), int(std::min<qsizetype>(characters, MaxColumnWidth)));
}

void Workbook::write(Written &sheet, int column, const ExportCell &cell)
{
    lxw_worksheet *target = sheet.sheet;
    const lxw_row_t row = sheet.row;
    const auto col = lxw_col_t(column);
    if (const auto *text = std::get_if<QString>(&cell)) {
        if (text->isEmpty())
            return;
        worksheet_write_string(target, row, col, text->toUtf8().constData(), nullptr);
        fit(sheet, column, text->size());
    } else if (const auto *amount = std::get_if<api::Decimal>(&cell)) {
        char buffer[api::Decimal::MaxTextLength + 1];
        const int length = amount->format(buffer);
        buffer[length] = '\0';
        if (significantDigits(QByteArray(buffer, length)) > NumberDigits) {
            // More than a spreadsheet number keeps: its digits, as text.
            worksheet_write_string(target, row, col, buffer, m_amountText);
            fit(sheet, column, length);
        } else {
            // The nearest double of at most 15 digits reads back as those
            // digits. from_chars, not strtod: the C locale may want a comma.
            double number = 0;
            std::from_chars(buffer, buffer + length, number);
            worksheet_write_number(target, row, col, number, m_amount);
            fit(sheet, column, shownWidth(buffer, length));
        }
    } else if (const auto *flag = std::get_if<bool>(&cell)) {
        worksheet_write_boolean(target, row, col, *flag, nullptr);
        fit(sheet, column, 5);
    } else if (const auto *integer = std::get_if<qint64>(&cell)) {
        worksheet_write_number(target, row, col, double(*integer), m_integer);
        fit(sheet, column, QString::number(*integer).size() + 2);
    } else if (const auto *time = std::get_if<ExportTime>(&cell)) {
        worksheet_write_unixtime(target, row, col, time->ms / 1000, m_date);
        fit(sheet, column, 19);
    } else if (const auto *word = std::get_if<ExportWord>(&cell)) {
        if (word->words.isEmpty())
            return;
        worksheet_write_string(target, row, col, word->words.toUtf8().constData(), nullptr);
        fit(sheet, column, word->words.size());
    }
}

void Workbook::append(int sheet, const ExportRow &row)
{
    const CNumbers numbers;
    Written &written = m_sheets[sheet];
    for (int column = 0; column < row.size(); ++column)
        write(written, column, row.at(column));
    ++written.row;
}

api::Result<api::Done> Workbook::save()
{
    const CNumbers numbers;
    for (const Written &sheet : std::as_const(m_sheets))
        for (int column = 0; column < sheet.widths.size(); ++column)
            worksheet_set_column(sheet.sheet, lxw_col_t(column), lxw_col_t(column),
                                 sheet.widths.at(column) + 2, nullptr);
    const lxw_error closed = workbook_close(std::exchange(m_book, nullptr));
    if (closed != LXW_NO_ERROR) {
        QFile::remove(m_temporary);
        return api::ApiError::local(
            u"file_unwritable"_s,
            tr("Cannot save %1: %2").arg(m_path, QString::fromUtf8(lxw_strerror(closed))));
    }
    // rename(2) replaces an older file of that name in one step.
    if (std::rename(QFile::encodeName(m_temporary).constData(),
                    QFile::encodeName(m_path).constData()) != 0) {
        QFile::remove(m_temporary);
        return api::ApiError::local(u"file_unwritable"_s, tr("Cannot save %1").arg(m_path));
    }
    return api::Done{};
}

} // namespace md::models
