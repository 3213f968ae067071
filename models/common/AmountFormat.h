// Locale formatting of exact amounts and timestamps for display; no double
// ever touches an amount.
#pragma once

#include "services/api/Decimal.h"

#include <QLocale>
#include <QString>

namespace md::models {

// Groups digits and uses the locale's separators; keeps at least
// `minimumDecimals` fractional digits and never rounds away precision.
QString formatAmount(const api::Decimal &amount, const QLocale &locale = QLocale(),
                     int minimumDecimals = 2);
QString formatDate(qint64 msSinceEpoch, const QLocale &locale = QLocale());
QString formatTimestamp(qint64 msSinceEpoch, const QLocale &locale = QLocale());
// For table columns, where a long date would not fit: date and time, short.
QString formatShortTimestamp(qint64 msSinceEpoch, const QLocale &locale = QLocale());

} // namespace md::models
