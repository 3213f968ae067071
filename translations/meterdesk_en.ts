<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message numerus="yes">
        <source>%1
taken %2, %Ln models</source>
        <translation>
            <numerusform>%1
taken %2, %Ln model</numerusform>
            <numerusform>%1
taken %2, %Ln models</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message numerus="yes">
        <source>Loading the audit log… %Ln entry(s) so far</source>
        <translation>
            <numerusform>Loading the audit log… %Ln entry so far</numerusform>
            <numerusform>Loading the audit log… %Ln entries so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln audit entry(s)</source>
        <translation>
            <numerusform>%Ln audit entry</numerusform>
            <numerusform>%Ln audit entries</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln audit entry(s).</source>
        <translation>
            <numerusform>Exported %Ln audit entry.</numerusform>
            <numerusform>Exported %Ln audit entries.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceDetailPane</name>
    <message numerus="yes">
        <source>%Ln balances are selected. Select one to see it here and to adjust it.</source>
        <translation>
            <numerusform>%Ln balance is selected. Select it to see it here and to adjust it.</numerusform>
            <numerusform>%Ln balances are selected. Select one to see it here and to adjust it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceExport</name>
    <message numerus="yes">
        <source>The export stopped after %n row(s): %1</source>
        <translation>
            <numerusform>The export stopped after %n row: %1</numerusform>
            <numerusform>The export stopped after %n rows: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceExportBar</name>
    <message numerus="yes">
        <source>Exporting… %Ln row(s) written</source>
        <translation>
            <numerusform>Exporting… %Ln row written</numerusform>
            <numerusform>Exporting… %Ln rows written</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Saved the report of %Ln row(s).</source>
        <translation>
            <numerusform>Saved the report of %Ln row.</numerusform>
            <numerusform>Saved the report of %Ln rows.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sent the report of %Ln row(s) to the printer.</source>
        <translation>
            <numerusform>Sent the report of %Ln row to the printer.</numerusform>
            <numerusform>Sent the report of %Ln rows to the printer.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln row(s) and their totals.</source>
        <translation>
            <numerusform>Exported %Ln row and its totals.</numerusform>
            <numerusform>Exported %Ln rows and their totals.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln row(s); their totals were not written: %1</source>
        <translation>
            <numerusform>Exported %Ln row; its totals were not written: %1</numerusform>
            <numerusform>Exported %Ln rows; their totals were not written: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceLedgerTab</name>
    <message numerus="yes">
        <source>Saved %Ln ledger entry(s).</source>
        <translation>
            <numerusform>Saved %Ln ledger entry.</numerusform>
            <numerusform>Saved %Ln ledger entries.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Loading the ledger… %Ln entry(s) so far</source>
        <translation>
            <numerusform>Loading the ledger… %Ln entry so far</numerusform>
            <numerusform>Loading the ledger… %Ln entries so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s) for %1&apos;s %2 balances, newest first; this balance&apos;s in bold.</source>
        <translation>
            <numerusform>%Ln entry for %1&apos;s %2 balances, newest first; this balance&apos;s in bold.</numerusform>
            <numerusform>%Ln entries for %1&apos;s %2 balances, newest first; this balance&apos;s in bold.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceListModel</name>
    <message numerus="yes">
        <source>%n rollover(s) carried onto this balance</source>
        <translation>
            <numerusform>%n rollover carried onto this balance</numerusform>
            <numerusform>%n rollovers carried onto this balance</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalanceTotalsModel</name>
    <message numerus="yes">
        <source>%Ln balance(s)</source>
        <translation>
            <numerusform>%Ln balance</numerusform>
            <numerusform>%Ln balances</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln customer(s)</source>
        <translation>
            <numerusform>%Ln customer</numerusform>
            <numerusform>%Ln customers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln feature(s): choose one to add up its amounts</source>
        <translation>
            <numerusform>%Ln feature: choose it to add up its amounts</numerusform>
            <numerusform>%Ln features: choose one to add up its amounts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BalancesPage</name>
    <message numerus="yes">
        <source>Loading balances… %Ln row(s) so far</source>
        <translation>
            <numerusform>Loading balances… %Ln row so far</numerusform>
            <numerusform>Loading balances… %Ln rows so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s), more on scroll</source>
        <translation>
            <numerusform>%Ln row, more on scroll</numerusform>
            <numerusform>%Ln rows, more on scroll</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s)</source>
        <translation>
            <numerusform>%Ln row</numerusform>
            <numerusform>%Ln rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%L1 of %Ln row(s) loaded, more on scroll</source>
        <translation>
            <numerusform>%L1 of %Ln row loaded, more on scroll</numerusform>
            <numerusform>%L1 of %Ln rows loaded, more on scroll</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Console</name>
    <message numerus="yes">
        <source>Prices from %1: %Ln models</source>
        <translation>
            <numerusform>Prices from %1: %Ln model</numerusform>
            <numerusform>Prices from %1: %Ln models</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CustomerSearchField</name>
    <message numerus="yes">
        <source>More than %n customer(s) match &quot;%1&quot;: type more of the id, name or email, or choose one from the list.</source>
        <translation>
            <numerusform>More than %n customer matches &quot;%1&quot;: type more of the id, name or email, or choose one from the list.</numerusform>
            <numerusform>More than %n customers match &quot;%1&quot;: type more of the id, name or email, or choose one from the list.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) match &quot;%1&quot;: choose one from the list.</source>
        <translation>
            <numerusform>%n customer matches &quot;%1&quot;: choose it from the list.</numerusform>
            <numerusform>%n customers match &quot;%1&quot;: choose one from the list.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ExportButton</name>
    <message numerus="yes">
        <source>Saved %Ln row(s).</source>
        <translation>
            <numerusform>Saved %Ln row.</numerusform>
            <numerusform>Saved %Ln rows.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FailedEventsPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;Failed events&lt;/b&gt;: %Ln accepted call(s) could not be applied and are kept here.</source>
        <translation>
            <numerusform>&lt;b&gt;Failed events&lt;/b&gt;: %Ln accepted call could not be applied and is kept here.</numerusform>
            <numerusform>&lt;b&gt;Failed events&lt;/b&gt;: %Ln accepted calls could not be applied and are kept here.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Discard %Ln call(s)? Their usage will not be recorded.</source>
        <translation>
            <numerusform>Discard %Ln call? Its usage will not be recorded.</numerusform>
            <numerusform>Discard %Ln calls? Their usage will not be recorded.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln call(s) put back to be applied.</source>
        <translation>
            <numerusform>%Ln call put back to be applied.</numerusform>
            <numerusform>%Ln calls put back to be applied.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln call(s) discarded.</source>
        <translation>
            <numerusform>%Ln call discarded.</numerusform>
            <numerusform>%Ln calls discarded.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportChecks</name>
    <message numerus="yes">
        <source>customer %1 is also on line(s) %2; leave out all but one</source>
        <translation>
            <numerusform>customer %1 is also on line %2; leave out all but one</numerusform>
            <numerusform>customer %1 is also on lines %2; leave out all but one</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportCommitPage</name>
    <message numerus="yes">
        <source>Importing %n customer(s) into %1.
Journal: %2</source>
        <translation>
            <numerusform>Importing %n customer into %1.
Journal: %2</numerusform>
            <numerusform>Importing %n customers into %1.
Journal: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Stopped with %n customer(s) not imported yet. Continue now, or open the same source later to resume.</source>
        <translation>
            <numerusform>Stopped with %n customer not imported yet. Continue now, or open the same source later to resume.</numerusform>
            <numerusform>Stopped with %n customers not imported yet. Continue now, or open the same source later to resume.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportMappingPage</name>
    <message numerus="yes">
        <source>%Ln plan value(s) mapped to plan ids.</source>
        <translation>
            <numerusform>%Ln plan value mapped to a plan id.</numerusform>
            <numerusform>%Ln plan values mapped to plan ids.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportPreviewPage</name>
    <message numerus="yes">
        <source>Resuming: %n customer(s) the journal lists as imported are not sent again.</source>
        <translation>
            <numerusform>Resuming: %n customer the journal lists as imported is not sent again.</numerusform>
            <numerusform>Resuming: %n customers the journal lists as imported are not sent again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportReportPage</name>
    <message numerus="yes">
        <source>%n customer(s) imported:</source>
        <translation>
            <numerusform>%n customer imported:</numerusform>
            <numerusform>%n customers imported:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>of which %n in an earlier run (from the journal)</source>
        <translation>
            <numerusform>of which %n in an earlier run (from the journal)</numerusform>
            <numerusform>of which %n in an earlier run (from the journal)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) not imported.</source>
        <translation>
            <numerusform>%n customer not imported.</numerusform>
            <numerusform>%n customers not imported.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportSourcePage</name>
    <message numerus="yes">
        <source>%n row(s) read.</source>
        <translation>
            <numerusform>%n row read.</numerusform>
            <numerusform>%n rows read.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>An earlier commit of this source, started %1, stopped after %n customer(s).</source>
        <translation>
            <numerusform>An earlier commit of this source, started %1, stopped after %n customer.</numerusform>
            <numerusform>An earlier commit of this source, started %1, stopped after %n customers.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This source was imported into %1 on %2: %n customer(s).</source>
        <translation>
            <numerusform>This source was imported into %1 on %2: %n customer.</numerusform>
            <numerusform>This source was imported into %1 on %2: %n customers.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportValidationPage</name>
    <message numerus="yes">
        <source>%n row(s): </source>
        <translation>
            <numerusform>%n row: </numerusform>
            <numerusform>%n rows: </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ready</source>
        <translation>
            <numerusform>%n ready</numerusform>
            <numerusform>%n ready</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with problems</source>
        <translation>
            <numerusform>%n with problems</numerusform>
            <numerusform>%n with problems</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left out</source>
        <translation>
            <numerusform>%n left out</numerusform>
            <numerusform>%n left out</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n naming a plan this workspace does not have (the import would refuse them)</source>
        <translation>
            <numerusform>%n naming a plan this workspace does not have (the import would refuse it)</numerusform>
            <numerusform>%n naming a plan this workspace does not have (the import would refuse them)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln failed event(s)&lt;/a&gt;</source>
        <translation>
            <numerusform>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln failed event&lt;/a&gt;</numerusform>
            <numerusform>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln failed events&lt;/a&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProductsPage</name>
    <message numerus="yes">
        <source>Promoted %n change(s) to production.</source>
        <translation>
            <numerusform>Promoted %n change to production.</numerusform>
            <numerusform>Promoted %n changes to production.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PromotionDialog</name>
    <message numerus="yes">
        <source>%n difference(s).</source>
        <translation>
            <numerusform>%n difference.</numerusform>
            <numerusform>%n differences.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PromotionModel</name>
    <message numerus="yes">
        <source>production (%n promoted change(s))</source>
        <translation>
            <numerusform>production (%n promoted change)</numerusform>
            <numerusform>production (%n promoted changes)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ResetOutlook</name>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n minute</numerusform>
            <numerusform>%n minutes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n hour</numerusform>
            <numerusform>%n hours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n day</numerusform>
            <numerusform>%n days</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n week(s)</source>
        <translation>
            <numerusform>%n week</numerusform>
            <numerusform>%n weeks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n month(s)</source>
        <translation>
            <numerusform>%n month</numerusform>
            <numerusform>%n months</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n quarter(s)</source>
        <translation>
            <numerusform>%n quarter</numerusform>
            <numerusform>%n quarters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n half-year(s)</source>
        <translation>
            <numerusform>%n half-year</numerusform>
            <numerusform>%n half-years</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n year(s)</source>
        <translation>
            <numerusform>%n year</numerusform>
            <numerusform>%n years</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SandboxClockDialog</name>
    <message numerus="yes">
        <source>%n reset(s) giving back %1</source>
        <translation>
            <numerusform>%n reset giving back %1</numerusform>
            <numerusform>%n resets giving back %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SandboxClockModel</name>
    <message numerus="yes">
        <source>%n reset(s), </source>
        <translation>
            <numerusform>%n reset, </numerusform>
            <numerusform>%n resets, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rollover(s), </source>
        <translation>
            <numerusform>%n rollover, </numerusform>
            <numerusform>%n rollovers, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expiry(ies) and </source>
        <translation>
            <numerusform>%n expiry and </numerusform>
            <numerusform>%n expiries and </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n subscription period(s) moved on.</source>
        <translation>
            <numerusform>%n subscription period moved on.</numerusform>
            <numerusform>%n subscription periods moved on.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StripeDriftModel</name>
    <message numerus="yes">
        <source>%n plan(s) checked: Meterdesk and Stripe agree.</source>
        <translation>
            <numerusform>%n plan checked: Meterdesk and Stripe agree.</numerusform>
            <numerusform>%n plans checked: Meterdesk and Stripe agree.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) checked; %1 difference(s). Nothing was changed.</source>
        <translation>
            <numerusform>%n plan checked; %1 difference(s). Nothing was changed.</numerusform>
            <numerusform>%n plans checked; %1 difference(s). Nothing was changed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StripePriceMapping</name>
    <message numerus="yes">
        <source>on %n plan(s)</source>
        <translation>
            <numerusform>on %n plan</numerusform>
            <numerusform>on %n plans</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StripeSourcePanel</name>
    <message numerus="yes">
        <source>%n subscription(s) read…</source>
        <translation>
            <numerusform>%n subscription read…</numerusform>
            <numerusform>%n subscriptions read…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) to import from %1 subscription(s); %2 left out (ended, or no plan for their price); %3 price(s) without a plan; %4 to review.</source>
        <translation>
            <numerusform>%n customer to import from %1 subscription(s); %2 left out (ended, or no plan for their price); %3 price(s) without a plan; %4 to review.</numerusform>
            <numerusform>%n customers to import from %1 subscription(s); %2 left out (ended, or no plan for their price); %3 price(s) without a plan; %4 to review.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UsagePage</name>
    <message numerus="yes">
        <source>%Ln events</source>
        <translation>
            <numerusform>%Ln event</numerusform>
            <numerusform>%Ln events</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UsageRunPage</name>
    <message numerus="yes">
        <source>%Ln balance(s) change; </source>
        <translation>
            <numerusform>%Ln balance changes; </numerusform>
            <numerusform>%Ln balances change; </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) would be refused.</source>
        <translation>
            <numerusform>%Ln event would be refused.</numerusform>
            <numerusform>%Ln events would be refused.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) applied, </source>
        <translation>
            <numerusform>%Ln event applied, </numerusform>
            <numerusform>%Ln events applied, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln recorded by an earlier run, </source>
        <translation>
            <numerusform>%Ln recorded by an earlier run, </numerusform>
            <numerusform>%Ln recorded by an earlier run, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln refused.</source>
        <translation>
            <numerusform>%Ln refused.</numerusform>
            <numerusform>%Ln refused.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) would be recorded drawing on no balance; </source>
        <translation>
            <numerusform>%Ln event would be recorded drawing on no balance; </numerusform>
            <numerusform>%Ln events would be recorded drawing on no balance; </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UsageSourcePage</name>
    <message numerus="yes">
        <source>%Ln row(s): </source>
        <translation>
            <numerusform>%Ln row: </numerusform>
            <numerusform>%Ln rows: </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message numerus="yes">
        <source>%1, %2 (%Ln attempt(s)), webhook-id %3</source>
        <translation>
            <numerusform>%1, %2 (%Ln attempt), webhook-id %3</numerusform>
            <numerusform>%1, %2 (%Ln attempts), webhook-id %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %1? Its %Ln waiting delivery(s) and its history go with it; nothing more is sent there.</source>
        <translation>
            <numerusform>Delete %1? Its %Ln waiting delivery and its history go with it; nothing more is sent there.</numerusform>
            <numerusform>Delete %1? Its %Ln waiting deliveries and its history go with it; nothing more is sent there.</numerusform>
        </translation>
    </message>
</context>
</TS>
