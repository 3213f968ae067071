#include "models/BalanceWorkbook.h"

#include "models/BalanceTotalsModel.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryFile>

#include <xlsxwriter.h>

#include <charconv>
#include <clocale>
#include <cstdio>
#include <locale.h>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

constexpr int MaxColumnWidth = 60;

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

// Significant digits and decimals of the exact text "-123.4500" → (7, 4).
std::pair<int, int> digitsOf(const QByteArray &text)
{
    int significant = 0;
    int decimals = 0;
    bool leading = true;
    bool fraction = false;
    for (const char c : text) {
        if (c == '.') {
            fraction = true;
            continue;
        }
        if (c < '0' || c > '9')
            continue;
        if (fraction)
            ++decimals;
        if (leading && c == '0')
            continue;
        leading = false;
        ++significant;
    }
    return {significant, decimals};
}

} // namespace

api::Result<std::unique_ptr<BalanceWorkbook>> BalanceWorkbook::create(const QString &path)
{
    // A name of our own beside the target: renamed over it once complete.
    QTemporaryFile reserve(QFileInfo(path).dir().filePath(u".meterdesk-XXXXXX.xlsx"_s));
    if (!reserve.open())
        return api::ApiError::local(u"file_unwritable"_s,
                                    tr("Cannot write %1: %2").arg(path, reserve.errorString()));
    reserve.setAutoRemove(false);
    const QString temporary = reserve.fileName();
    reserve.close();
    lxw_workbook_options options{};
    options.constant_memory = LXW_TRUE; // rows go to disk as they are written
    options.use_zip64 = LXW_TRUE;       // a million rows pass 4 GiB of XML
    lxw_workbook *book = workbook_new_opt(QFile::encodeName(temporary).constData(), &options);
    if (!book) {
        QFile::remove(temporary);
        return api::ApiError::local(u"file_unwritable"_s, tr("Cannot write %1").arg(path));
    }
    return std::unique_ptr<BalanceWorkbook>(new BalanceWorkbook(path, temporary, book));
}

BalanceWorkbook::BalanceWorkbook(const QString &path, const QString &temporary, lxw_workbook *book)
    : m_path(path)
    , m_temporary(temporary)
    , m_book(book)
    , m_header(workbook_add_format(book))
    , m_date(workbook_add_format(book))
{
    m_rows.sheet = workbook_add_worksheet(book, tr("Balances").toUtf8().constData());
    m_totals.sheet = workbook_add_worksheet(book, tr("Totals").toUtf8().constData());
    format_set_bold(m_header);
    format_set_num_format(m_date, "yyyy-mm-dd hh:mm:ss");
    for (int decimals = 0; decimals <= api::Decimal::Scale; ++decimals) {
        lxw_format *format = workbook_add_format(book);
        const QByteArray pattern =
            "#,##0" + (decimals ? "." + QByteArray(decimals, '0') : QByteArray());
        format_set_num_format(format, pattern.constData());
        m_amounts.append(format);
    }
    header(m_rows, {u"id"_s, u"customer_id"_s, u"entity_id"_s, u"feature_id"_s, u"plan_id"_s,
                    u"included_grant"_s, u"prepaid_grant"_s, u"remaining"_s, u"usage"_s,
                    u"unlimited"_s, u"reset_interval"_s, u"next_reset_at"_s, u"expires_at"_s,
                    u"status"_s, u"rollovers"_s, u"created_at"_s});
    header(m_totals, {u"group_by"_s, u"key"_s, u"balances"_s, u"customers"_s, u"granted"_s,
                      u"remaining"_s, u"usage"_s});
}

BalanceWorkbook::~BalanceWorkbook()
{
    if (!m_book)
        return;
    lxw_workbook_free(m_book); // abandoned: its temporary files go, nothing is zipped
    QFile::remove(m_temporary);
}

bool BalanceWorkbook::fitsNumber(const api::Decimal &amount)
{
    char text[api::Decimal::MaxTextLength];
    return digitsOf(QByteArray(text, amount.format(text))).first <= NumberDigits;
}

void BalanceWorkbook::header(Sheet &sheet, const QStringList &names)
{
    for (int column = 0; column < names.size(); ++column) {
        worksheet_write_string(sheet.sheet, 0, lxw_col_t(column),
                               names.at(column).toUtf8().constData(), m_header);
        fit(sheet, column, names.at(column).size());
    }
    worksheet_freeze_panes(sheet.sheet, 1, 0);
    sheet.row = 1;
}

void BalanceWorkbook::fit(Sheet &sheet, int column, qsizetype characters)
{
    if (sheet.widths.size() <= column)
        sheet.widths.resize(column + 1);
    sheet.widths[column] =
        std::max(sheet.widths.at(column), int(std::min<qsizetype>(characters, MaxColumnWidth)));
}

void BalanceWorkbook::text(Sheet &sheet, int column, const QString &value)
{
    if (value.isEmpty())
        return;
    worksheet_write_string(sheet.sheet, sheet.row, lxw_col_t(column), value.toUtf8().constData(),
                           nullptr);
    fit(sheet, column, value.size());
}

void BalanceWorkbook::amount(Sheet &sheet, int column, const api::Decimal &value)
{
    char buffer[api::Decimal::MaxTextLength + 1];
    const int length = value.format(buffer);
    buffer[length] = '\0';
    const auto [significant, decimals] = digitsOf(QByteArray(buffer, length));
    if (significant > NumberDigits) { // more than a spreadsheet number keeps
        worksheet_write_string(sheet.sheet, sheet.row, lxw_col_t(column), buffer, nullptr);
    } else {
        // The nearest double of at most 15 digits reads back as those digits.
        // from_chars, not strtod: the console's C locale may want a comma.
        double number = 0;
        std::from_chars(buffer, buffer + length, number);
        worksheet_write_number(sheet.sheet, sheet.row, lxw_col_t(column), number,
                               m_amounts.at(decimals));
    }
    fit(sheet, column, length + length / 3 + 1); // with the grouping it is shown with
}

void BalanceWorkbook::integer(Sheet &sheet, int column, qint64 value)
{
    worksheet_write_number(sheet.sheet, sheet.row, lxw_col_t(column), double(value),
                           m_amounts.first());
    fit(sheet, column, QString::number(value).size() + 2);
}

void BalanceWorkbook::time(Sheet &sheet, int column, std::optional<qint64> ms)
{
    if (!ms)
        return;
    worksheet_write_unixtime(sheet.sheet, sheet.row, lxw_col_t(column), *ms / 1000, m_date);
    fit(sheet, column, 19);
}

void BalanceWorkbook::writeTotals(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy)
{
    const CNumbers numbers;
    const QString by = BalanceTotalsModel::groupName(groupBy);
    const auto line = [&](const QString &kind, const QString &key, const api::TotalsFigures &f) {
        text(m_totals, 0, kind);
        text(m_totals, 1, key);
        integer(m_totals, 2, f.balances);
        integer(m_totals, 3, f.customers);
        amount(m_totals, 4, f.granted);
        amount(m_totals, 5, f.remaining);
        amount(m_totals, 6, f.usage);
        ++m_totals.row;
    };
    for (const api::TotalsGroup &group : totals.groups)
        line(by, group.key.value_or(tr("(none)")), group.figures);
    line(tr("total"), QString(), totals.total);
}

void BalanceWorkbook::writeRows(const QList<api::BalanceRow> &rows)
{
    const CNumbers numbers;
    for (const api::BalanceRow &row : rows) {
        text(m_rows, 0, row.id);
        text(m_rows, 1, row.customerId);
        text(m_rows, 2, row.entityId.value_or(QString()));
        text(m_rows, 3, row.featureId);
        text(m_rows, 4, row.planId.value_or(QString()));
        amount(m_rows, 5, row.includedGrant);
        amount(m_rows, 6, row.prepaidGrant);
        amount(m_rows, 7, row.remaining);
        amount(m_rows, 8, row.usage);
        worksheet_write_boolean(m_rows.sheet, m_rows.row, 9, row.unlimited, nullptr);
        text(m_rows, 10, row.reset ? QString(api::toWire(row.reset->interval)) : QString());
        time(m_rows, 11, row.reset ? row.reset->resetsAt : std::nullopt);
        time(m_rows, 12, row.expiresAt);
        text(m_rows, 13, QString(api::toWire(row.status)));
        integer(m_rows, 14, row.rollovers.size());
        time(m_rows, 15, row.createdAt);
        ++m_rows.row;
    }
}

api::Result<api::Done> BalanceWorkbook::save()
{
    const CNumbers numbers;
    for (Sheet *sheet : {&m_rows, &m_totals})
        for (int column = 0; column < sheet->widths.size(); ++column)
            worksheet_set_column(sheet->sheet, lxw_col_t(column), lxw_col_t(column),
                                 sheet->widths.at(column) + 2, nullptr);
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
