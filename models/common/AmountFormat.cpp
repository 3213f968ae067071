#include "models/common/AmountFormat.h"

#include <QDateTime>

namespace md::models {

QString formatAmount(const api::Decimal &amount, const QLocale &locale, int minimumDecimals)
{
    const QString plain = amount.toString();
    const bool negative = plain.startsWith(u'-');
    const qsizetype point = plain.indexOf(u'.');
    QString whole =
        plain.mid(negative ? 1 : 0, (point < 0 ? plain.size() : point) - (negative ? 1 : 0));
    QString fraction = point < 0 ? QString() : plain.mid(point + 1);
    while (fraction.size() < minimumDecimals)
        fraction.append(u'0');
    QString grouped;
    const QString group = locale.groupSeparator();
    for (qsizetype i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0 &&
            !(locale.numberOptions() & QLocale::OmitGroupSeparator))
            grouped += group;
        grouped += whole.at(i);
    }
    QString text = negative ? locale.negativeSign() + grouped : grouped;
    if (!fraction.isEmpty())
        text += locale.decimalPoint() + fraction;
    return text;
}

QString formatDate(qint64 msSinceEpoch, const QLocale &locale)
{
    return locale.toString(QDateTime::fromMSecsSinceEpoch(msSinceEpoch).date(),
                           QLocale::ShortFormat);
}

QString formatTimestamp(qint64 msSinceEpoch, const QLocale &locale)
{
    return locale.toString(QDateTime::fromMSecsSinceEpoch(msSinceEpoch), QLocale::LongFormat);
}

QString formatShortTimestamp(qint64 msSinceEpoch, const QLocale &locale)
{
    return locale.toString(QDateTime::fromMSecsSinceEpoch(msSinceEpoch), QLocale::ShortFormat);
}

} // namespace md::models
