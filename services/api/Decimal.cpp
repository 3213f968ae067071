#include "services/api/Decimal.h"

#include <QLocale>
#include <QVariant>

#include <cmath>
#include <limits>

namespace md::api {

namespace {

bool inRange(Int128 raw)
{
    return raw <= Decimal::MaxRaw && raw >= -Decimal::MaxRaw;
}

} // namespace

std::optional<Decimal> Decimal::parse(QStringView text)
{
    qsizetype i = 0;
    const qsizetype n = text.size();
    bool negative = false;
    if (i < n && (text[i] == u'-' || text[i] == u'+')) {
        negative = text[i] == u'-';
        ++i;
    }
    QString digits;
    int fractionDigits = 0;
    bool seenPoint = false;
    bool seenDigit = false;
    for (; i < n; ++i) {
        const QChar c = text[i];
        if (c.isDigit() && c.unicode() < 128) {
            digits.append(c);
            seenDigit = true;
            if (seenPoint)
                ++fractionDigits;
        } else if (c == u'.' && !seenPoint) {
            seenPoint = true;
        } else {
            break;
        }
    }
    if (!seenDigit)
        return std::nullopt;
    int exponent = 0;
    if (i < n && (text[i] == u'e' || text[i] == u'E')) {
        bool ok = false;
        exponent = text.mid(i + 1).toInt(&ok);
        if (!ok || exponent > 40 || exponent < -40)
            return std::nullopt;
        i = n;
    }
    if (i != n)
        return std::nullopt;

    // value = digits * 10^(exponent - fractionDigits); we need it in nano-units.
    int shift = Scale + exponent - fractionDigits;
    while (shift < 0 && digits.endsWith(u'0')) {
        digits.chop(1);
        ++shift;
    }
    if (shift < 0)
        return std::nullopt; // more precision than nano-units hold
    while (digits.size() > 1 && digits.startsWith(u'0'))
        digits.remove(0, 1);
    if (digits.size() + shift > 30)
        return std::nullopt;
    Int128 raw = 0;
    for (QChar c : std::as_const(digits))
        raw = raw * 10 + (c.unicode() - u'0');
    for (int k = 0; k < shift; ++k)
        raw *= 10;
    if (!inRange(raw))
        return std::nullopt;
    return Decimal(negative ? -raw : raw);
}

std::optional<Decimal> Decimal::fromJson(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const QVariant v = value.toVariant();
    if (v.typeId() == QMetaType::LongLong)
        return fromInteger(v.toLongLong());
    const double d = value.toDouble();
    if (!std::isfinite(d))
        return std::nullopt;
    return parse(QString::number(d, 'g', QLocale::FloatingPointShortest));
}

QString Decimal::toString() const
{
    Int128 magnitude = m_raw < 0 ? -m_raw : m_raw;
    Int128 whole = magnitude / One;
    Int128 fraction = magnitude % One;
    QString wholeText;
    do {
        wholeText.prepend(QChar(u'0' + int(whole % 10)));
        whole /= 10;
    } while (whole > 0);
    QString text = m_raw < 0 ? u'-' + wholeText : wholeText;
    if (fraction != 0) {
        QString fractionText(Scale, u'0');
        for (int k = Scale - 1; k >= 0; --k) {
            fractionText[k] = QChar(u'0' + int(fraction % 10));
            fraction /= 10;
        }
        while (fractionText.endsWith(u'0'))
            fractionText.chop(1);
        text += u'.' + fractionText;
    }
    return text;
}

QJsonValue Decimal::toJson() const
{
    // Every 64-bit integer, as fromJson reads them exactly too: through a double,
    // 777777777777777601 would come back as 777777777777777600.
    const Int128 whole = m_raw / One;
    if (isInteger() && whole <= std::numeric_limits<qint64>::max() &&
        whole >= std::numeric_limits<qint64>::min())
        return QJsonValue(qint64(whole));
    return QJsonValue(toString().toDouble());
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

} // namespace md::api
