// What a balance's next reset will do, in words for its detail: the grant
// that comes back, an overage forgiven, and what rolls over, how much and
// until when (docs/api.md, "The billing clock"). Figures are as of the row
// read: what is used before the reset carries over less.
#pragma once

#include "services/api/Balance.h"

#include <QCoreApplication>
#include <QLocale>

namespace md::models {

class ResetOutlook final
{
    Q_DECLARE_TR_FUNCTIONS(ResetOutlook)

public:
    // "1,000.00 back, usage back to 0; the overage of 20.00 is forgiven";
    // empty when the row never resets.
    static QString atTheReset(const api::BalanceRow &row, const QLocale &locale = QLocale());
    // "250.00 unused now carries over, kept until 1 March 2027 (2 months);
    // at most 500.00 held, the soonest to expire giving way first"; empty
    // when the row never resets or carries nothing over.
    static QString rollsOver(const api::BalanceRow &row, const QLocale &locale = QLocale());
    // What carries over if nothing more is used before the reset: the
    // positive remaining, held to the rule's max.
    static api::Decimal carried(const api::BalanceRow &row);
    // "2 months", "1 week": a rollover's life.
    static QString lengthName(qint64 length, api::ResetInterval duration);

private:
    static bool resets(const api::BalanceRow &row);
};

} // namespace md::models
