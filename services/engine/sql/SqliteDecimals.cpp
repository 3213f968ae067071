#include "services/engine/sql/SqliteDecimals.h"

#include "services/api/Decimal.h"

#include <QSqlDriver>

#include <sqlite3.h>

#include <cstring>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

// A value as a sum: NULL is nothing; anything but decimal text is an error.
bool readSum(sqlite3_context *context, sqlite3_value *value, Decimal &out)
{
    if (sqlite3_value_type(value) == SQLITE_NULL) {
        out = Decimal();
        return true;
    }
    const auto *text = reinterpret_cast<const char *>(sqlite3_value_text(value));
    const auto parsed = Decimal::parseSum(QByteArrayView(text, sqlite3_value_bytes(value)));
    if (!parsed) {
        sqlite3_result_error(context, "md_decimal: not a decimal number below 10^29", -1);
        return false;
    }
    out = *parsed;
    return true;
}

void answer(sqlite3_context *context, Decimal sum)
{
    char text[Decimal::MaxTextLength];
    sqlite3_result_text(context, text, sum.format(text), SQLITE_TRANSIENT);
}

void add(sqlite3_context *context, int, sqlite3_value **values)
{
    Decimal a;
    Decimal b;
    if (!readSum(context, values[0], a) || !readSum(context, values[1], b))
        return;
    if (const auto sum = a.sum(b))
        answer(context, *sum);
    else
        sqlite3_result_error(context, "md_decimal_add: the sum leaves the range of sums", -1);
}

// md_decimal_shift(total, now, was): a kept sum after one of its terms went
// from `was` to `now` (the balance_sums triggers). A term a write left alone
// (the same text) leaves the sum as it is, unparsed: most writes change only
// some of a row's amounts.
void shift(sqlite3_context *context, int, sqlite3_value **values)
{
    const unsigned char *nowText = sqlite3_value_text(values[1]);
    const unsigned char *wasText = sqlite3_value_text(values[2]);
    const int bytes = sqlite3_value_bytes(values[1]);
    if (nowText && wasText && bytes == sqlite3_value_bytes(values[2]) &&
        std::memcmp(nowText, wasText, size_t(bytes)) == 0) {
        sqlite3_result_value(context, values[0]);
        return;
    }
    Decimal total;
    Decimal now;
    Decimal was;
    if (!readSum(context, values[0], total) || !readSum(context, values[1], now) ||
        !readSum(context, values[2], was))
        return;
    const auto difference = now.sum(was.negated());
    const auto sum = difference ? total.sum(*difference) : std::nullopt;
    if (sum)
        answer(context, *sum);
    else
        sqlite3_result_error(context, "md_decimal_shift: the sum leaves the range of sums", -1);
}

// Kept in SQLite's aggregate memory, which is zeroed and only 8-byte
// aligned: the sum is copied in and out as bytes, never read in place.
struct Running
{
    unsigned char sum[sizeof(Decimal)];
    bool failed;

    Decimal load() const
    {
        Decimal value;
        std::memcpy(static_cast<void *>(&value), sum, sizeof value);
        return value;
    }
    void store(Decimal value) { std::memcpy(sum, static_cast<const void *>(&value), sizeof value); }
};

void step(sqlite3_context *context, int, sqlite3_value **values)
{
    auto *running = static_cast<Running *>(sqlite3_aggregate_context(context, sizeof(Running)));
    if (!running || running->failed)
        return;
    Decimal value;
    if (!readSum(context, values[0], value)) {
        running->failed = true;
        return;
    }
    const auto sum = running->load().sum(value);
    if (!sum) {
        running->failed = true;
        sqlite3_result_error(context, "md_decimal_sum: the sum leaves the range of sums", -1);
        return;
    }
    running->store(*sum);
}

void final(sqlite3_context *context)
{
    // Zeroed memory is a zero Decimal: an aggregate over no rows answers "0".
    auto *running = static_cast<Running *>(sqlite3_aggregate_context(context, 0));
    if (running && running->failed)
        return;
    answer(context, running ? running->load() : Decimal());
}

} // namespace

api::Result<api::Done> registerSqliteDecimals(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return api::ApiError::internal(u"not a SQLite connection"_s);
    sqlite3 *connection = *static_cast<sqlite3 *const *>(handle.constData());
    constexpr int Flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
    if (sqlite3_create_function_v2(connection, "md_decimal_add", 2, Flags, nullptr, add, nullptr,
                                   nullptr, nullptr) != SQLITE_OK ||
        sqlite3_create_function_v2(connection, "md_decimal_shift", 3, Flags, nullptr, shift,
                                   nullptr, nullptr, nullptr) != SQLITE_OK ||
        sqlite3_create_function_v2(connection, "md_decimal_sum", 1, Flags, nullptr, nullptr, step,
                                   final, nullptr) != SQLITE_OK)
        return api::ApiError::internal(u"the decimal functions could not be registered: %1"_s.arg(
            QString::fromUtf8(sqlite3_errmsg(connection))));
    return api::Done{};
}

} // namespace md::engine
