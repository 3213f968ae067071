#include "services/api/Decimal.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace md::api {

namespace {

bool inRange(Int128 raw)
{
    return raw < Decimal::MaxRaw && raw > -Decimal::MaxRaw;
}

bool inSumRange(Int128 raw)
{
    return raw < Decimal::SumMaxRaw && raw > -Decimal::SumMaxRaw;
}

} // namespace

namespace {

// The form amounts are stored and usually sent in, "-123.45" with at most
// 18 digits, read in one pass without the general parser's buffer (sums over
// a million stored rows spend their time here). nullopt: not that form.
template <typename Char> std::optional<Int128> plainRaw(const Char *text, qsizetype n)
{
    qsizetype i = n > 0 && text[0] == '-' ? 1 : 0;
    const bool negative = i == 1;
    qint64 value = 0;
    int digits = 0;
    int fractionDigits = -1; // -1: no point yet
    for (; i < n; ++i) {
        const char16_t c = char16_t(text[i]);
        if (c >= u'0' && c <= u'9') {
            if (++digits > 18)
                return std::nullopt;
            value = value * 10 + (c - u'0');
            if (fractionDigits >= 0)
                ++fractionDigits;
        } else if (c == u'.' && fractionDigits < 0 && digits > 0) {
            fractionDigits = 0;
        } else {
            return std::nullopt;
        }
    }
    if (digits == 0 || fractionDigits == 0 || fractionDigits > Decimal::Scale)
        return std::nullopt;
    Int128 raw = value;
    for (int k = std::max(fractionDigits, 0); k < Decimal::Scale; ++k)
        raw *= 10;
    return negative ? -raw : raw;
}

// One parser for UTF-16 and Latin-1 text: only ASCII is accepted; the
// value is an amount, or a sum when `sum` is set.
template <typename Char>
std::optional<Int128> parseRaw(const Char *text, qsizetype n, bool sum = false)
{
    if (const auto plain = plainRaw(text, n))
        return plain;
    const auto at = [&](qsizetype i) { return char16_t(text[i]); };
    qsizetype i = 0;
    bool negative = false;
    if (i < n && (at(i) == u'-' || at(i) == u'+')) {
        negative = at(i) == u'-';
        ++i;
    }
    char digits[64];
    int count = 0; // significant digits kept in `digits`
    int fractionDigits = 0;
    int dropped = 0; // digits past what `digits` holds: must all be zero
    bool seenPoint = false;
    bool seenDigit = false;
    for (; i < n; ++i) {
        const char16_t c = at(i);
        if (c >= u'0' && c <= u'9') {
            seenDigit = true;
            if (seenPoint)
                ++fractionDigits;
            if (count == 0 && c == u'0' && !seenPoint)
                continue; // a leading zero of the integer part
            if (count < int(sizeof digits))
                digits[count++] = char(c);
            else if (c != u'0')
                return std::nullopt; // far more digits than the range holds
            else
                ++dropped;
        } else if (c == u'.' && !seenPoint) {
            seenPoint = true;
        } else {
            break;
        }
    }
    if (!seenDigit)
        return std::nullopt;
    int exponent = 0;
    if (i < n && (at(i) == u'e' || at(i) == u'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (at(i) == u'-' || at(i) == u'+')) {
            expNegative = at(i) == u'-';
            ++i;
        }
        if (i == n)
            return std::nullopt;
        for (; i < n; ++i) {
            if (at(i) < u'0' || at(i) > u'9')
                return std::nullopt;
            exponent = exponent * 10 + (at(i) - u'0');
            if (exponent > 1000)
                return std::nullopt;
        }
        if (expNegative)
            exponent = -exponent;
    }
    if (i != n)
        return std::nullopt;

    // value = digits × 10^(exponent + dropped - fractionDigits); in nano-units:
    int shift = Decimal::Scale + exponent + dropped - fractionDigits;
    while (shift < 0 && count > 0 && digits[count - 1] == '0') {
        --count;
        ++shift;
    }
    if (count == 0)
        return Int128(0);
    if (shift < 0)
        return std::nullopt; // more precision than nano-units hold
    if (count + shift > 38)  // 10^38 nano-units: past both ranges, and Int128 holds it
        return std::nullopt;
    Int128 raw = 0;
    for (int k = 0; k < count; ++k)
        raw = raw * 10 + (digits[k] - '0');
    for (int k = 0; k < shift; ++k)
        raw *= 10;
    if (sum ? !inSumRange(raw) : !inRange(raw))
        return std::nullopt;
    return negative ? -raw : raw;
}

} // namespace

std::optional<Decimal> Decimal::parse(QStringView text)
{
    const auto raw = parseRaw(text.utf16(), text.size());
    return raw ? std::optional(Decimal(*raw)) : std::nullopt;
}

std::optional<Decimal> Decimal::parse(QByteArrayView text)
{
    const auto raw = parseRaw(text.data(), text.size());
    return raw ? std::optional(Decimal(*raw)) : std::nullopt;
}

std::optional<Decimal> Decimal::parseSum(QByteArrayView text)
{
    const auto raw = parseRaw(text.data(), text.size(), true);
    return raw ? std::optional(Decimal(*raw)) : std::nullopt;
}

// Digits by 64-bit division where the value allows (every amount below ten
// billion): a 128-bit division per digit made formatting the largest cost of
// a track call's write (perf, issue 22).
int Decimal::format(char *buffer) const
{
    __extension__ typedef unsigned __int128 Unsigned128;
    const Unsigned128 magnitude =
        m_raw < 0 ? Unsigned128(0) - Unsigned128(m_raw) : Unsigned128(m_raw);
    constexpr auto Max64 = std::numeric_limits<std::uint64_t>::max();
    constexpr auto Unit = std::uint64_t(One);
    Unsigned128 wide;
    std::uint32_t fraction;
    if (magnitude <= Max64) {
        wide = std::uint64_t(magnitude) / Unit;
        fraction = std::uint32_t(std::uint64_t(magnitude) % Unit);
    } else {
        wide = magnitude / Unit;
        fraction = std::uint32_t(magnitude - wide * Unit);
    }
    char reversed[MaxTextLength];
    int n = 0;
    while (wide > Max64) {
        reversed[n++] = char('0' + int(wide % 10));
        wide /= 10;
    }
    auto whole = std::uint64_t(wide);
    do {
        reversed[n++] = char('0' + int(whole % 10));
        whole /= 10;
    } while (whole > 0);
    int length = 0;
    if (m_raw < 0)
        buffer[length++] = '-';
    while (n > 0)
        buffer[length++] = reversed[--n];
    if (fraction != 0) {
        buffer[length++] = '.';
        char digits[Scale];
        for (int k = Scale - 1; k >= 0; --k) {
            digits[k] = char('0' + int(fraction % 10));
            fraction /= 10;
        }
        int last = Scale;
        while (digits[last - 1] == '0')
            --last;
        for (int k = 0; k < last; ++k)
            buffer[length++] = digits[k];
    }
    return length;
}

QString Decimal::toString() const
{
    char text[MaxTextLength];
    return QString::fromLatin1(text, format(text));
}

std::optional<Decimal> Decimal::plus(Decimal other) const
{
    const Int128 sum = m_raw + other.m_raw;
    return inRange(sum) ? std::optional(Decimal(sum)) : std::nullopt;
}

std::optional<Decimal> Decimal::mulDiv(Int128 numerator, Int128 denominator) const
{
    if (denominator == 0)
        return std::nullopt;
    const Int128 magnitude = m_raw < 0 ? -m_raw : m_raw;
    const Int128 factor = numerator < 0 ? -numerator : numerator;
    // Refuse products beyond 127 bits rather than wrap.
    constexpr Int128 Max = Int128(~(__extension__(unsigned __int128)(1) << 127));
    if (factor != 0 && magnitude > Max / factor)
        return std::nullopt;
    const Int128 product = magnitude * factor;
    const Int128 divisor = denominator < 0 ? -denominator : denominator;
    Int128 quotient = product / divisor;
    if ((product % divisor) * 2 >= divisor)
        ++quotient;
    const bool negative = ((m_raw < 0) != (numerator < 0)) != (denominator < 0);
    const Int128 raw = negative ? -quotient : quotient;
    return inRange(raw) ? std::optional(Decimal(raw)) : std::nullopt;
}

std::optional<Decimal> Decimal::minus(Decimal other) const
{
    return plus(other.negated());
}

std::optional<Decimal> Decimal::sum(Decimal other) const
{
    const Int128 total = m_raw + other.m_raw; // both below 10^38: no overflow
    return inSumRange(total) ? std::optional(Decimal(total)) : std::nullopt;
}

} // namespace md::api
