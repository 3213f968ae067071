// Exact decimal numbers for money and quantities: a 128-bit integer of
// nano-units (9 fixed fractional digits). Never a double in arithmetic.
#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringView>

#include <compare>
#include <optional>

namespace md::api {

__extension__ typedef __int128 Int128;

class Decimal final
{
public:
    static constexpr int Scale = 9;
    static constexpr Int128 One = 1'000'000'000;
    // An amount is below 10^20 in magnitude (MaxRaw itself is out of range).
    static constexpr Int128 MaxRaw = Int128(100'000'000'000'000'000) * 1000 * One;
    // A sum of amounts (a summary's or the totals' granted, remaining and
    // usage) is below 10^29: 10^9 amounts of the largest size, and Int128
    // (about 1.7 × 10^38 nano-units) still holds it.
    static constexpr Int128 SumMaxRaw = MaxRaw * One;

    constexpr Decimal() = default;
    static constexpr Decimal fromRaw(Int128 raw) { return Decimal(raw); }
    static constexpr Decimal fromInteger(qint64 units) { return Decimal(Int128(units) * One); }

    // Plain decimal or scientific notation ("12.5", "-3", "1.5e-7"), which
    // covers every JSON number literal. Rejects more than Scale fractional
    // digits and values beyond the range rather than rounding.
    static std::optional<Decimal> parse(QStringView text);
    static std::optional<Decimal> parse(QByteArrayView text);
    // The same for a sum, below 10^29 in magnitude.
    static std::optional<Decimal> parseSum(QByteArrayView text);

    constexpr Int128 raw() const { return m_raw; }
    // The shortest plain text: "-12.5", "3"; never an exponent. It is also
    // the value's JSON number literal.
    QString toString() const;
    // The same text into `buffer` (at least MaxTextLength bytes); returns its
    // length. A sum's longest: "-", 29 digits, ".", 9 digits.
    static constexpr int MaxTextLength = 40;
    int format(char *buffer) const;

    constexpr bool isZero() const { return m_raw == 0; }
    constexpr bool isNegative() const { return m_raw < 0; }
    constexpr bool isInteger() const { return m_raw % One == 0; }

    // Checked arithmetic: nullopt when the result leaves the supported range.
    std::optional<Decimal> plus(Decimal other) const;
    std::optional<Decimal> minus(Decimal other) const;
    // Adds to a sum: nullopt only past the range of sums (SumMaxRaw).
    std::optional<Decimal> sum(Decimal other) const;
    // A running sum of amounts, which stays in that range (10^9 amounts are
    // far below it): this plus `other`, or this where it would leave it.
    Decimal runningSum(Decimal other) const { return sum(other).value_or(*this); }
    constexpr bool isAmount() const { return m_raw < MaxRaw && m_raw > -MaxRaw; }
    constexpr Decimal negated() const { return Decimal(-m_raw); }
    // this × numerator / denominator, rounded half away from zero to the
    // nearest nano-unit; nullopt on overflow or a zero denominator.
    std::optional<Decimal> mulDiv(Int128 numerator, Int128 denominator) const;

    constexpr auto operator<=>(const Decimal &) const = default;

private:
    constexpr explicit Decimal(Int128 raw)
        : m_raw(raw)
    {}
    Int128 m_raw = 0;
};

} // namespace md::api
