// An organization's currency and its minor unit (docs/billing.md, "Money is
// exact"): USD unless the workspace says otherwise, one per organization.
// Each line's amount is rounded to whole minor units (cents, or yen), so
// sums of lines are kept as 64-bit counts of them, exactly.
#pragma once

#include "services/api/ChargesPreview.h"
#include "services/api/Decimal.h"
#include "services/api/Result.h"

namespace md::engine {

class Money final
{
public:
    // US dollars: every organization's until its workspace names another.
    Money() = default;

    // An ISO 4217 code in lower case ("eur", "jpy"), or none for a code
    // that is not one.
    static std::optional<Money> of(QStringView code);

    const QString &code() const { return m_code; }
    // Decimals of its minor unit: 2 for USD and EUR, 0 for JPY, 3 for KWD.
    int minorDigits() const { return m_digits; }

    // An amount already rounded to the minor unit as a count of them; 500
    // past 2^63 of them.
    api::Result<qint64> minorOf(api::Decimal amount) const;
    api::Decimal amountOf(qint64 minor) const;

    // The most one line may come to: a trillion in the currency. Only absurd
    // prices, quantities or usage reach it; a line past it is billed at it
    // and says so, so no stored value can stop the billing clock, and a
    // month's revenue (a 64-bit count of minor units) holds 92,000 of them.
    static api::Decimal largestLine() { return api::Decimal::fromInteger(1'000'000'000'000); }

    // The exact sum of lines' amounts (a preview's or a statement's total);
    // 500 past the range of sums.
    static api::Result<api::Decimal> total(const QList<api::ChargeLine> &lines);

private:
    Money(QString code, int digits)
        : m_code(std::move(code))
        , m_digits(digits)
    {}
    api::Int128 minorStep() const;

    QString m_code = QStringLiteral("usd");
    int m_digits = 2;
};

} // namespace md::engine
