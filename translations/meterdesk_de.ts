<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AboutDialog</name>
    <message>
        <source>an undated snapshot</source>
        <translation>ein undatierter Stand</translation>
    </message>
    <message numerus="yes">
        <source>%1
taken %2, %Ln models</source>
        <translation>
            <numerusform>%1
Stand %2, %Ln Modell</numerusform>
            <numerusform>%1
Stand %2, %Ln Modelle</numerusform>
        </translation>
    </message>
    <message>
        <source>(source not given)</source>
        <translation>(Quelle nicht angegeben)</translation>
    </message>
    <message>
        <source>About Meterdesk</source>
        <translation>Über Meterdesk</translation>
    </message>
    <message>
        <source>Desktop console for usage-based billing.</source>
        <translation>Desktop-Konsole für nutzungsbasierte Abrechnung.</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version:</translation>
    </message>
    <message>
        <source>Qt:</source>
        <translation>Qt:</translation>
    </message>
    <message>
        <source>%1 (built with %2)</source>
        <translation>%1 (gebaut mit %2)</translation>
    </message>
    <message>
        <source>Licence:</source>
        <translation>Lizenz:</translation>
    </message>
    <message>
        <source>MIT, for Meterdesk&apos;s source code.
The console links Qt Charts, which is GPL v3:
as built, it is distributed under the GPL v3.</source>
        <translation>MIT, für den Quellcode von Meterdesk.
Die Konsole bindet Qt Charts ein, das unter der GPL v3 steht:
So gebaut, wird sie unter der GPL v3 verbreitet.</translation>
    </message>
    <message>
        <source>Connected to:</source>
        <translation>Verbunden mit:</translation>
    </message>
    <message>
        <source>asking…</source>
        <translation>wird erfragt …</translation>
    </message>
    <message>
        <source>Price catalogue:</source>
        <translation>Preiskatalog:</translation>
    </message>
    <message>
        <source>&amp;Copy details</source>
        <translation>Angaben &amp;kopieren</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>not known: %1</source>
        <translation>unbekannt: %1</translation>
    </message>
    <message>
        <source>%1
meterdesk-server</source>
        <translation>%1
meterdesk-server</translation>
    </message>
    <message>
        <source>%1
embedded engine</source>
        <translation>%1
eingebettete Engine</translation>
    </message>
</context>
<context>
    <name>AdjustBalanceDialog</name>
    <message>
        <source>Adjust balance %1</source>
        <translation>Guthaben %1 berichtigen</translation>
    </message>
    <message>
        <source>e.g. %1 to add, %2 to take away</source>
        <translation>z. B. %1 zum Gutschreiben, %2 zum Abziehen</translation>
    </message>
    <message>
        <source>Why: a credit note, a goodwill gesture, a correction…</source>
        <translation>Warum: eine Gutschrift, Kulanz, eine Korrektur …</translation>
    </message>
    <message>
        <source>Balance:</source>
        <translation>Guthaben:</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>Remaining now:</source>
        <translation>Jetzt verbleibend:</translation>
    </message>
    <message>
        <source>&amp;Amount:</source>
        <translation>&amp;Betrag:</translation>
    </message>
    <message>
        <source>&amp;Reason:</source>
        <translation>&amp;Grund:</translation>
    </message>
    <message>
        <source>The change is written to the balance&apos;s ledger and, with its reason, to the audit log.</source>
        <translation>Die Änderung wird in das Journal des Guthabens und, mit ihrem Grund, in das Prüfprotokoll geschrieben.</translation>
    </message>
    <message>
        <source>A&amp;djust</source>
        <translation>Be&amp;richtigen</translation>
    </message>
    <message>
        <source>%1 (resets)</source>
        <translation>%1 (wird zurückgesetzt)</translation>
    </message>
    <message>
        <source>Adjus&amp;t:</source>
        <translation>Gut&amp;haben:</translation>
    </message>
    <message>
        <source>Looking for a balance of %1 that does not reset…</source>
        <translation>Suche nach einem Guthaben von %1, das nicht zurückgesetzt wird …</translation>
    </message>
    <message>
        <source>The balances that do not reset could not be read: %1</source>
        <translation>Die Guthaben, die nicht zurückgesetzt werden, konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 (does not reset; expires on %2)</source>
        <translation>%1 (wird nicht zurückgesetzt; läuft am %2 ab)</translation>
    </message>
    <message>
        <source>%1 (does not reset)</source>
        <translation>%1 (wird nicht zurückgesetzt)</translation>
    </message>
    <message>
        <source>A new balance of %1 that does not reset</source>
        <translation>Ein neues Guthaben von %1, das nicht zurückgesetzt wird</translation>
    </message>
    <message>
        <source>A credit on this balance ends at its reset. %1 holds no balance of %2 that does not reset: choose a new one above, where the credit lasts until it is used.</source>
        <translation>Eine Gutschrift auf diesem Guthaben endet mit seiner Zurücksetzung. %1 hat kein Guthaben von %2, das nicht zurückgesetzt wird: Wählen Sie oben ein neues, auf dem die Gutschrift bleibt, bis sie verbraucht ist.</translation>
    </message>
    <message>
        <source>A credit on this balance ends at its reset; one on a balance that does not reset lasts until it is used. Choose one above, or a new one.</source>
        <translation>Eine Gutschrift auf diesem Guthaben endet mit seiner Zurücksetzung; eine auf einem Guthaben, das nicht zurückgesetzt wird, bleibt, bis sie verbraucht ist. Wählen Sie oben eines oder ein neues.</translation>
    </message>
    <message>
        <source>nothing yet: the balance is made with the amount</source>
        <translation>noch nichts: das Guthaben wird mit dem Betrag angelegt</translation>
    </message>
    <message>
        <source>&amp;Make balance</source>
        <translation>Guthaben &amp;anlegen</translation>
    </message>
</context>
<context>
    <name>ApiKeyDialog</name>
    <message>
        <source>&amp;All scopes, now and later</source>
        <translation>&amp;Alle Scopes, jetzt und künftig</translation>
    </message>
    <message>
        <source>E&amp;xpires</source>
        <translation>Läuft a&amp;b</translation>
    </message>
    <message>
        <source>Create &amp;key</source>
        <translation>Schlüssel &amp;erstellen</translation>
    </message>
    <message>
        <source>New API key</source>
        <translation>Neuer API-Schlüssel</translation>
    </message>
    <message>
        <source>What it is for: &quot;finance dashboard&quot;, &quot;billing sync&quot;</source>
        <translation>Wofür: „Finanz-Dashboard“, „Abrechnungs-Sync“</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>&amp;Name</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>A key can hand out only the scopes this connection&apos;s key holds. Its secret is shown once, when it is made.</source>
        <translation>Ein Schlüssel kann nur die Scopes weitergeben, die der Schlüssel dieser Verbindung hat. Sein Geheimnis wird einmal gezeigt, wenn er erstellt wird.</translation>
    </message>
    <message>
        <source>The key was not made: %1</source>
        <translation>Der Schlüssel wurde nicht erstellt: %1</translation>
    </message>
    <message>
        <source>&amp;Scopes</source>
        <translation>Sco&amp;pes</translation>
    </message>
</context>
<context>
    <name>ApiKeyModel</name>
    <message>
        <source>Revoked %1</source>
        <translation>Widerrufen %1</translation>
    </message>
    <message>
        <source>Expired %1</source>
        <translation>Abgelaufen %1</translation>
    </message>
    <message>
        <source>Active; old secret works until %1</source>
        <translation>Aktiv; altes Geheimnis gilt bis %1</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Only the first characters are kept in view; the secret was shown once.</source>
        <translation>Nur die ersten Zeichen bleiben sichtbar; das Geheimnis wurde einmal gezeigt.</translation>
    </message>
    <message>
        <source>All scopes</source>
        <translation>Alle Scopes</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Scopes</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt benutzt</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
</context>
<context>
    <name>AuditLogModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Wer</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>Geändert</translation>
    </message>
    <message>
        <source>%1 (console)</source>
        <translation>%1 (Konsole)</translation>
    </message>
    <message>
        <source>key %1</source>
        <translation>Schlüssel %1</translation>
    </message>
    <message>
        <source>key %1 (%2)</source>
        <translation>Schlüssel %1 (%2)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Resource id</source>
        <translation>Ressourcen-ID</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>Alles</translation>
    </message>
    <message>
        <source>Products</source>
        <translation>Produkte</translation>
    </message>
    <message>
        <source>Rewards</source>
        <translation>Prämien</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
    <message>
        <source>Organizations</source>
        <translation>Organisationen</translation>
    </message>
    <message>
        <source>Billing controls</source>
        <translation>Abrechnungsregeln</translation>
    </message>
    <message>
        <source>API keys</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>any id</source>
        <translation>jede Kennung</translation>
    </message>
    <message>
        <source>key id or name</source>
        <translation>Schlüssel-ID oder Name</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>Jederzeit</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>&amp;Resource</source>
        <translation>&amp;Ressource</translation>
    </message>
    <message>
        <source>I&amp;d</source>
        <translation>&amp;Kennung</translation>
    </message>
    <message>
        <source>&amp;Who</source>
        <translation>W&amp;er</translation>
    </message>
    <message>
        <source>Whe&amp;n</source>
        <translation>W&amp;ann</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>Select an entry to see the resource before and after.</source>
        <translation>Wählen Sie einen Eintrag, um die Ressource vorher und nachher zu sehen.</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 by %2: %3 %4. Changed: %5</source>
        <translation>%1 durch %2: %3 %4. Geändert: %5</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>The audit log could not be loaded: %1</source>
        <translation>Das Prüfprotokoll konnte nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>No audit entries match. Writes appear here as they happen.</source>
        <translation>Keine Einträge passen. Änderungen erscheinen hier, sobald sie geschehen.</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>Prüfprotokoll exportieren</translation>
    </message>
    <message>
        <source>audit-log.csv</source>
        <translation>pruefprotokoll.csv</translation>
    </message>
    <message>
        <source>Exporting the audit log…</source>
        <translation>Prüfprotokoll wird exportiert…</translation>
    </message>
    <message numerus="yes">
        <source>Loading the audit log… %Ln entry(s) so far</source>
        <translation>
            <numerusform>Prüfprotokoll wird geladen… bisher %Ln Eintrag</numerusform>
            <numerusform>Prüfprotokoll wird geladen… bisher %Ln Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln audit entry(s)</source>
        <translation>
            <numerusform>%Ln Protokolleintrag</numerusform>
            <numerusform>%Ln Protokolleinträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln audit entry(s).</source>
        <translation>
            <numerusform>%Ln Protokolleintrag exportiert.</numerusform>
            <numerusform>%Ln Protokolleinträge exportiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Prüfprotokoll</translation>
    </message>
</context>
<context>
    <name>BalanceAdjustEdit</name>
    <message>
        <source>This balance is unlimited: it has no amount to adjust.</source>
        <translation>Dieses Guthaben ist unbegrenzt: Es hat keinen Betrag, der sich berichtigen ließe.</translation>
    </message>
    <message>
        <source>Amount: enter what to add, or a negative amount to take away.</source>
        <translation>Betrag: Geben Sie ein, was gutgeschrieben werden soll, oder einen negativen Betrag zum Abziehen.</translation>
    </message>
    <message>
        <source>Amount: &quot;%1&quot; is not an amount; write it like %2, without thousands separators, at most 9 decimals.</source>
        <translation>Betrag: „%1“ ist kein Betrag; schreiben Sie ihn wie %2, ohne Tausendertrennzeichen, mit höchstens 9 Nachkommastellen.</translation>
    </message>
    <message>
        <source>Amount: 0 would not change the balance.</source>
        <translation>Betrag: 0 würde das Guthaben nicht ändern.</translation>
    </message>
    <message>
        <source>Reason: say why the balance is adjusted; it goes to the audit log.</source>
        <translation>Grund: Sagen Sie, warum das Guthaben berichtigt wird; er kommt ins Prüfprotokoll.</translation>
    </message>
    <message>
        <source>Amount: too large.</source>
        <translation>Betrag: zu groß.</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Adjustment</source>
        <translation>Berichtigung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Reason: %1.</source>
        <translation>Grund: %1.</translation>
    </message>
    <message>
        <source>Balance %1 does not reset; the credit lasts until it is used or the balance expires on %2.</source>
        <translation>Guthaben %1 wird nicht zurückgesetzt; die Gutschrift bleibt, bis sie verbraucht ist oder das Guthaben am %2 abläuft.</translation>
    </message>
    <message>
        <source>Balance %1 does not reset; the credit lasts until it is used.</source>
        <translation>Guthaben %1 wird nicht zurückgesetzt; die Gutschrift bleibt, bis sie verbraucht ist.</translation>
    </message>
    <message>
        <source>This balance resets on %1; the deduction lasts until then: the reset puts the remaining back to %2.</source>
        <translation>Dieses Guthaben wird am %1 zurückgesetzt; der Abzug gilt bis dahin: Die Zurücksetzung setzt den verbleibenden Betrag wieder auf %2.</translation>
    </message>
    <message>
        <source>This balance resets on %1; the credit lasts until then. What is left of it then rolls over with the rest unused (%2) for %3, and then expires.</source>
        <translation>Dieses Guthaben wird am %1 zurückgesetzt; die Gutschrift bleibt bis dahin. Was dann von ihr übrig ist, wird mit dem übrigen Unverbrauchten (%2) für %3 übertragen und läuft danach ab.</translation>
    </message>
    <message>
        <source>at most %1 held</source>
        <translation>höchstens %1 gehalten</translation>
    </message>
    <message>
        <source>no maximum</source>
        <translation>ohne Höchstgrenze</translation>
    </message>
    <message>
        <source>This balance resets on %1; the credit lasts until then: the reset puts the remaining back to %2.</source>
        <translation>Dieses Guthaben wird am %1 zurückgesetzt; die Gutschrift bleibt bis dahin: Die Zurücksetzung setzt den verbleibenden Betrag wieder auf %2.</translation>
    </message>
    <message>
        <source>Amount: a new balance holds what it is given; enter more than 0.</source>
        <translation>Betrag: Ein neues Guthaben enthält, was ihm gegeben wird; geben Sie mehr als 0 ein.</translation>
    </message>
    <message>
        <source>%1, entity %2</source>
        <translation>%1, Entität %2</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>new: %1 of %2, does not reset</source>
        <translation>neu: %1 von %2, wird nicht zurückgesetzt</translation>
    </message>
    <message>
        <source>A new balance of %1 that does not reset: the credit of %2 lasts until it is used.</source>
        <translation>Ein neues Guthaben von %1, das nicht zurückgesetzt wird: Die Gutschrift von %2 bleibt, bis sie verbraucht ist.</translation>
    </message>
</context>
<context>
    <name>BalanceDetailPane</name>
    <message>
        <source>Show &amp;JSON</source>
        <translation>&amp;JSON zeigen</translation>
    </message>
    <message>
        <source>Select a balance to see its plan, grants, price, reset, rollovers and billing controls.</source>
        <translation>Wählen Sie ein Guthaben, um Tarif, Gewährungen, Preis, Zurücksetzung, Überträge und Abrechnungsregeln zu sehen.</translation>
    </message>
    <message>
        <source>The balance as the API sends it (Alt+J)</source>
        <translation>Das Guthaben, wie die API es sendet (Alt+J)</translation>
    </message>
    <message>
        <source>Show &amp;details</source>
        <translation>&amp;Details zeigen</translation>
    </message>
    <message>
        <source>%1, entity %2</source>
        <translation>%1, Entität %2</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 für %2</translation>
    </message>
    <message>
        <source>Balance %1 · %2</source>
        <translation>Guthaben %1 · %2</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>none (standalone)</source>
        <translation>keiner (eigenständig)</translation>
    </message>
    <message>
        <source>Grant</source>
        <translation>Gewährung</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>Included grant</source>
        <translation>Enthaltene Gewährung</translation>
    </message>
    <message>
        <source>Prepaid grant</source>
        <translation>Vorausbezahlte Gewährung</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Used this period</source>
        <translation>In diesem Zeitraum verbraucht</translation>
    </message>
    <message>
        <source>prepaid</source>
        <translation>vorausbezahlt</translation>
    </message>
    <message>
        <source>usage-based</source>
        <translation>nutzungsbasiert</translation>
    </message>
    <message>
        <source>up to %1: %2%3</source>
        <translation>bis %1: %2%3</translation>
    </message>
    <message>
        <source>∞</source>
        <translation>∞</translation>
    </message>
    <message>
        <source> + %1 flat</source>
        <translation> + %1 pauschal</translation>
    </message>
    <message>
        <source>at most %1 purchased</source>
        <translation>höchstens %1 gekauft</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Resets</source>
        <translation>Zurücksetzung</translation>
    </message>
    <message>
        <source>%1, next %2</source>
        <translation>%1, nächste Zurücksetzung am %2</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Angelegt</translation>
    </message>
    <message>
        <source>Rollovers</source>
        <translation>Überträge</translation>
    </message>
    <message>
        <source>%1 of %2 left</source>
        <translation>%1 von %2 übrig</translation>
    </message>
    <message>
        <source>expires %1</source>
        <translation>läuft am %1 ab</translation>
    </message>
    <message>
        <source>Billing controls of this entity</source>
        <translation>Abrechnungsregeln dieser Einheit</translation>
    </message>
    <message>
        <source>Billing controls of this customer</source>
        <translation>Abrechnungsregeln dieses Kunden</translation>
    </message>
    <message>
        <source>They could not be read: %1</source>
        <translation>Sie konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Asking…</source>
        <translation>Wird abgefragt…</translation>
    </message>
    <message>
        <source>None: no limits, alerts or automatic top-ups.</source>
        <translation>Keine: keine Grenzen, Warnungen oder automatischen Aufladungen.</translation>
    </message>
    <message>
        <source>per unit</source>
        <translation>je Einheit</translation>
    </message>
    <message>
        <source>per %1 units</source>
        <translation>je %1 Einheiten</translation>
    </message>
    <message>
        <source>%1 %2, %3</source>
        <translation>%1 %2, %3</translation>
    </message>
    <message>
        <source>tiered %1, %2</source>
        <translation>gestaffelt %1, %2</translation>
    </message>
    <message>
        <source>Su&amp;mmary</source>
        <translation>Übers&amp;icht</translation>
    </message>
    <message>
        <source>&amp;Ledger</source>
        <translation>Journa&amp;l</translation>
    </message>
    <message numerus="yes">
        <source>%Ln balances are selected. Select one to see it here and to adjust it.</source>
        <translation>
            <numerusform>%Ln Guthaben ist ausgewählt. Wählen Sie eines, um es hier zu sehen und zu berichtigen.</numerusform>
            <numerusform>%Ln Guthaben sind ausgewählt. Wählen Sie eines, um es hier zu sehen und zu berichtigen.</numerusform>
        </translation>
    </message>
    <message>
        <source>At the reset</source>
        <translation>Bei der Zurücksetzung</translation>
    </message>
    <message>
        <source>Rolls over</source>
        <translation>Übertrag</translation>
    </message>
    <message>
        <source>no longer: the balance has expired</source>
        <translation>nicht mehr: das Guthaben ist abgelaufen</translation>
    </message>
    <message>
        <source>not known: %1</source>
        <translation>unbekannt: %1</translation>
    </message>
    <message>
        <source>asking…</source>
        <translation>wird abgefragt…</translation>
    </message>
    <message>
        <source>within the grant: nothing owed</source>
        <translation>innerhalb des Kontingents: nichts geschuldet</translation>
    </message>
    <message>
        <source>%1 past the grant, billed as %2: &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>%1 über dem Kontingent, abgerechnet als %2: &lt;b&gt;%3&lt;/b&gt;</translation>
    </message>
    <message>
        <source>This period so far</source>
        <translation>Dieser Zeitraum bisher</translation>
    </message>
    <message>
        <source>not among this period&apos;s charges</source>
        <translation>nicht unter den Beträgen dieses Zeitraums</translation>
    </message>
</context>
<context>
    <name>BalanceExport</name>
    <message>
        <source>An export is already running.</source>
        <translation>Es läuft bereits ein Export.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message numerus="yes">
        <source>The export stopped after %n row(s): %1</source>
        <translation>
            <numerusform>Der Export brach nach %n Zeile ab: %1</numerusform>
            <numerusform>Der Export brach nach %n Zeilen ab: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot save the export: %1</source>
        <translation>Der Export kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Balances</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>Summen</translation>
    </message>
    <message>
        <source>Cannot save the report: %1</source>
        <translation>Der Bericht kann nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Balance id</source>
        <translation>Guthaben-ID</translation>
    </message>
</context>
<context>
    <name>BalanceExportBar</name>
    <message>
        <source>&amp;Cancel export</source>
        <translation>Export &amp;abbrechen</translation>
    </message>
    <message numerus="yes">
        <source>Exporting… %Ln row(s) written</source>
        <translation>
            <numerusform>Export läuft… %Ln Zeile geschrieben</numerusform>
            <numerusform>Export läuft… %Ln Zeilen geschrieben</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Saved the report of %Ln row(s).</source>
        <translation>
            <numerusform>Bericht mit %Ln Zeile gespeichert.</numerusform>
            <numerusform>Bericht mit %Ln Zeilen gespeichert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sent the report of %Ln row(s) to the printer.</source>
        <translation>
            <numerusform>Bericht mit %Ln Zeile an den Drucker gesendet.</numerusform>
            <numerusform>Bericht mit %Ln Zeilen an den Drucker gesendet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln row(s) and their totals.</source>
        <translation>
            <numerusform>%Ln Zeile und ihre Summen exportiert.</numerusform>
            <numerusform>%Ln Zeilen und ihre Summen exportiert.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln row(s); their totals were not written: %1</source>
        <translation>
            <numerusform>%Ln Zeile exportiert; ihre Summen wurden nicht geschrieben: %1</numerusform>
            <numerusform>%Ln Zeilen exportiert; ihre Summen wurden nicht geschrieben: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Compressing the workbook…</source>
        <translation>Die Arbeitsmappe wird komprimiert …</translation>
    </message>
    <message>
        <source>Laying out the report…</source>
        <translation>Der Bericht wird gesetzt …</translation>
    </message>
    <message>
        <source>Drawing page %1 of %2…</source>
        <translation>Zeichne Seite %1 von %2 …</translation>
    </message>
    <message>
        <source>Export canceled; no file was written.</source>
        <translation>Export abgebrochen; es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1
No file was written.</source>
        <translation>%1
Es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <source>Preparing the report…</source>
        <translation>Der Bericht wird vorbereitet …</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>Exportiere …</translation>
    </message>
</context>
<context>
    <name>BalanceFilter</name>
    <message>
        <source>Choose Active, Expired or both.</source>
        <translation>Wählen Sie „Aktiv“, „Abgelaufen“ oder beides.</translation>
    </message>
    <message>
        <source>Remaining below: &quot;%1&quot; is not a percentage; type a whole number from 1 to 100.</source>
        <translation>Verbleibend unter: „%1“ ist kein Prozentsatz; geben Sie eine ganze Zahl von 1 bis 100 ein.</translation>
    </message>
    <message>
        <source>Remaining below: &quot;%1&quot; is not an amount; write it like %2, without thousands separators.</source>
        <translation>Verbleibend unter: „%1“ ist kein Betrag; schreiben Sie ihn wie %2, ohne Tausendertrennzeichen.</translation>
    </message>
</context>
<context>
    <name>BalanceFilterBar</name>
    <message>
        <source>&amp;Active</source>
        <translation>&amp;Aktiv</translation>
    </message>
    <message>
        <source>E&amp;xpired</source>
        <translation>A&amp;bgelaufen</translation>
    </message>
    <message>
        <source>all entities</source>
        <translation>alle Entitäten</translation>
    </message>
    <message>
        <source>Choose a customer first: entities belong to one customer.</source>
        <translation>Wählen Sie zuerst einen Kunden: Entitäten gehören zu einem Kunden.</translation>
    </message>
    <message>
        <source>Saved views</source>
        <translation>Gespeicherte Ansichten</translation>
    </message>
    <message>
        <source>&amp;Customer</source>
        <translation>&amp;Kunde</translation>
    </message>
    <message>
        <source>E&amp;ntity</source>
        <translation>E&amp;ntität</translation>
    </message>
    <message>
        <source>&amp;Feature</source>
        <translation>&amp;Funktion</translation>
    </message>
    <message>
        <source>&amp;Plan</source>
        <translation>&amp;Tarif</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>An&amp;sicht</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>Ansichten</translation>
    </message>
    <message>
        <source>&amp;Save current filter as view…</source>
        <translation>Aktuellen Filter als Ansicht &amp;speichern …</translation>
    </message>
    <message>
        <source>&amp;Delete selected view</source>
        <translation>Gewählte Ansicht &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Export views…</source>
        <translation>Ansichten &amp;exportieren …</translation>
    </message>
    <message>
        <source>&amp;Import views…</source>
        <translation>Ansichten &amp;importieren …</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportieren …</translation>
    </message>
    <message>
        <source>Write every balance of this filter to a CSV file</source>
        <translation>Alle Guthaben dieses Filters in eine CSV-Datei schreiben</translation>
    </message>
    <message>
        <source>All features</source>
        <translation>Alle Funktionen</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Any plan</source>
        <translation>Jeder Tarif</translation>
    </message>
    <message>
        <source>No plan</source>
        <translation>Kein Tarif</translation>
    </message>
    <message>
        <source>Save view</source>
        <translation>Ansicht speichern</translation>
    </message>
    <message>
        <source>Name of the view:</source>
        <translation>Name der Ansicht:</translation>
    </message>
    <message>
        <source>Export views</source>
        <translation>Ansichten exportieren</translation>
    </message>
    <message>
        <source>Views (*.json)</source>
        <translation>Ansichten (*.json)</translation>
    </message>
    <message>
        <source>Import views</source>
        <translation>Ansichten importieren</translation>
    </message>
    <message>
        <source>%1 was not imported: %2</source>
        <translation>%1 wurde nicht importiert: %2</translation>
    </message>
    <message>
        <source>Ref&amp;ills before</source>
        <translation>Auffüllung v&amp;or</translation>
    </message>
    <message>
        <source>Only balances whose next reset comes before the start of this day</source>
        <translation>Nur Guthaben, deren nächste Zurücksetzung vor Beginn dieses Tages liegt</translation>
    </message>
    <message>
        <source>Refills before</source>
        <translation>Auffüllung vor</translation>
    </message>
    <message>
        <source>Remaining belo&amp;w</source>
        <translation>&amp;Verbleibend unter</translation>
    </message>
    <message>
        <source>Only balances whose remaining is below an amount, or below a percentage of their grant (included plus prepaid)</source>
        <translation>Nur Guthaben, deren Restbetrag unter einem Betrag liegt oder unter einem Prozentsatz ihrer Gewährung (inklusive plus vorausbezahlt)</translation>
    </message>
    <message>
        <source>Remaining below</source>
        <translation>Verbleibend unter</translation>
    </message>
    <message>
        <source>% of the grant</source>
        <translation>% der Gewährung</translation>
    </message>
    <message>
        <source>in the feature&apos;s unit</source>
        <translation>in der Einheit der Funktion</translation>
    </message>
</context>
<context>
    <name>BalanceLedgerTab</name>
    <message>
        <source>Save ledger a&amp;s CSV…</source>
        <translation>Journal als CS&amp;V speichern …</translation>
    </message>
    <message>
        <source>Every entry of this ledger, as CSV with exact amounts</source>
        <translation>Alle Einträge dieses Journals als CSV mit genauen Beträgen</translation>
    </message>
    <message numerus="yes">
        <source>Saved %Ln ledger entry(s).</source>
        <translation>
            <numerusform>%Ln Journaleintrag gespeichert.</numerusform>
            <numerusform>%Ln Journaleinträge gespeichert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Select a balance to see how it came to hold what it holds.</source>
        <translation>Wählen Sie ein Guthaben, um zu sehen, wie es zu seinem Stand kam.</translation>
    </message>
    <message>
        <source>The ledger could not be loaded: %1</source>
        <translation>Das Journal konnte nicht geladen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>Loading the ledger… %Ln entry(s) so far</source>
        <translation>
            <numerusform>Journal wird geladen … bisher %Ln Eintrag</numerusform>
            <numerusform>Journal wird geladen … bisher %Ln Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry(s) for %1&apos;s %2 balances, newest first; this balance&apos;s in bold.</source>
        <translation>
            <numerusform>%Ln Eintrag zu den %2-Guthaben von %1, neueste zuerst; die dieses Guthabens fett.</numerusform>
            <numerusform>%Ln Einträge zu den %2-Guthaben von %1, neueste zuerst; die dieses Guthabens fett.</numerusform>
        </translation>
    </message>
    <message>
        <source>Save the ledger</source>
        <translation>Journal speichern</translation>
    </message>
    <message>
        <source>ledger-%1-%2.csv</source>
        <translation>journal-%1-%2.csv</translation>
    </message>
    <message>
        <source>Saving the ledger…</source>
        <translation>Journal wird gespeichert …</translation>
    </message>
    <message>
        <source>Adjust &amp;balance…</source>
        <translation>Guthaben be&amp;richtigen …</translation>
    </message>
    <message>
        <source>Correct this balance by hand, with the reason, for the audit log</source>
        <translation>Dieses Guthaben von Hand berichtigen, mit Grund, für das Prüfprotokoll</translation>
    </message>
    <message>
        <source>Ledger</source>
        <translation>Journal</translation>
    </message>
    <message>
        <source>An unlimited balance has no amount to adjust</source>
        <translation>Ein unbegrenztes Guthaben hat keinen Betrag, der berichtigt werden könnte</translation>
    </message>
    <message>
        <source>An expired balance holds nothing to adjust</source>
        <translation>Ein abgelaufenes Guthaben enthält nichts, was berichtigt werden könnte</translation>
    </message>
</context>
<context>
    <name>BalanceListModel</name>
    <message>
        <source>once</source>
        <translation>einmalig</translation>
    </message>
    <message>
        <source>every minute</source>
        <translation>minütlich</translation>
    </message>
    <message>
        <source>hourly</source>
        <translation>stündlich</translation>
    </message>
    <message>
        <source>daily</source>
        <translation>täglich</translation>
    </message>
    <message>
        <source>weekly</source>
        <translation>wöchentlich</translation>
    </message>
    <message>
        <source>monthly</source>
        <translation>monatlich</translation>
    </message>
    <message>
        <source>quarterly</source>
        <translation>vierteljährlich</translation>
    </message>
    <message>
        <source>half-yearly</source>
        <translation>halbjährlich</translation>
    </message>
    <message>
        <source>yearly</source>
        <translation>jährlich</translation>
    </message>
    <message>
        <source>several intervals</source>
        <translation>mehrere Intervalle</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>Included</source>
        <translation>Inklusive</translation>
    </message>
    <message>
        <source>Prepaid</source>
        <translation>Vorausbezahlt</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>Unlimited</source>
        <translation>Unbegrenzt</translation>
    </message>
    <message>
        <source>Resets</source>
        <translation>Zurücksetzung</translation>
    </message>
    <message>
        <source>Rollovers</source>
        <translation>Überträge</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Next reset</source>
        <translation>Nächste Zurücksetzung</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message numerus="yes">
        <source>%n rollover(s) carried onto this balance</source>
        <translation>
            <numerusform>%n Übertrag auf diesem Guthaben</numerusform>
            <numerusform>%n Überträge auf diesem Guthaben</numerusform>
        </translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
    </message>
</context>
<context>
    <name>BalanceReport</name>
    <message>
        <source>Balances report</source>
        <translation>Guthabenbericht</translation>
    </message>
    <message>
        <source>All customers</source>
        <translation>Alle Kunden</translation>
    </message>
    <message>
        <source>Customer %1, entity %2</source>
        <translation>Kunde %1, Entität %2</translation>
    </message>
    <message>
        <source>Customer %1</source>
        <translation>Kunde %1</translation>
    </message>
    <message>
        <source>feature %1</source>
        <translation>Funktion %1</translation>
    </message>
    <message>
        <source>every feature</source>
        <translation>jede Funktion</translation>
    </message>
    <message>
        <source>any plan</source>
        <translation>jeder Tarif</translation>
    </message>
    <message>
        <source>no plan</source>
        <translation>ohne Tarif</translation>
    </message>
    <message>
        <source>plan %1</source>
        <translation>Tarif %1</translation>
    </message>
    <message>
        <source>active and expired balances</source>
        <translation>aktive und abgelaufene Guthaben</translation>
    </message>
    <message>
        <source>expired balances</source>
        <translation>abgelaufene Guthaben</translation>
    </message>
    <message>
        <source>active balances</source>
        <translation>aktive Guthaben</translation>
    </message>
    <message>
        <source>Filter: %1</source>
        <translation>Filter: %1</translation>
    </message>
    <message>
        <source>Generated %1</source>
        <translation>Erstellt am %1</translation>
    </message>
    <message>
        <source>Totals by plan</source>
        <translation>Summen nach Tarif</translation>
    </message>
    <message>
        <source>Totals by customer</source>
        <translation>Summen nach Kunde</translation>
    </message>
    <message>
        <source>Totals by feature</source>
        <translation>Summen nach Funktion</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>Totals</source>
        <translation>Summen</translation>
    </message>
    <message>
        <source>The totals could not be computed; the rows follow.</source>
        <translation>Die Summen konnten nicht berechnet werden; die Zeilen folgen.</translation>
    </message>
    <message>
        <source>Balances</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>No balances match this filter.</source>
        <translation>Keine Guthaben passen zu diesem Filter.</translation>
    </message>
    <message>
        <source>Only the first %L1 of %L2 balances are listed. Export to Excel or CSV for every row.</source>
        <translation>Nur die ersten %L1 von %L2 Guthaben sind aufgeführt. Exportieren Sie nach Excel oder CSV für alle Zeilen.</translation>
    </message>
    <message>
        <source>Only the first %L1 balances are listed. Export to Excel or CSV for every row.</source>
        <translation>Nur die ersten %L1 Guthaben sind aufgeführt. Exportieren Sie nach Excel oder CSV für alle Zeilen.</translation>
    </message>
    <message>
        <source>The report cannot be drawn on this device.</source>
        <translation>Der Bericht kann auf diesem Gerät nicht gezeichnet werden.</translation>
    </message>
    <message>
        <source>Meterdesk · Balances report</source>
        <translation>Meterdesk · Guthabenbericht</translation>
    </message>
    <message>
        <source>Meterdesk · Balances report · %1</source>
        <translation>Meterdesk · Guthabenbericht · %1</translation>
    </message>
    <message>
        <source>Page %1 of the report could not be started.</source>
        <translation>Seite %1 des Berichts konnte nicht begonnen werden.</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>Seite %1 von %2</translation>
    </message>
    <message>
        <source>The report could not be finished.</source>
        <translation>Der Bericht konnte nicht abgeschlossen werden.</translation>
    </message>
    <message>
        <source>The report was canceled.</source>
        <translation>Der Bericht wurde abgebrochen.</translation>
    </message>
    <message>
        <source>resetting before %1</source>
        <translation>Zurücksetzung vor %1</translation>
    </message>
    <message>
        <source>Totals by month of next reset</source>
        <translation>Summen nach Monat der nächsten Zurücksetzung</translation>
    </message>
</context>
<context>
    <name>BalanceTotalsBar</name>
    <message>
        <source>Totals by gr&amp;oup</source>
        <translation>Summen nach Gr&amp;uppe</translation>
    </message>
    <message>
        <source>Retry totals</source>
        <translation>Summen erneut abrufen</translation>
    </message>
    <message>
        <source>What the grouped totals add up by</source>
        <translation>Wonach die Summen gruppiert werden</translation>
    </message>
    <message>
        <source>Totals could not be added up: %1</source>
        <translation>Die Summen konnten nicht gebildet werden: %1</translation>
    </message>
    <message>
        <source>Adding up the filter…</source>
        <translation>Filter wird summiert…</translation>
    </message>
    <message>
        <source>By feature</source>
        <translation>Nach Funktion</translation>
    </message>
    <message>
        <source>By plan</source>
        <translation>Nach Tarif</translation>
    </message>
    <message>
        <source>By customer</source>
        <translation>Nach Kunde</translation>
    </message>
    <message>
        <source>By month of next reset</source>
        <translation>Nach Monat der nächsten Zurücksetzung</translation>
    </message>
    <message>
        <source>Show what each feature, plan, customer or month of next reset of the filter adds up to (Alt+O)</source>
        <translation>Zeigt, was jede Funktion, jeder Tarif, jeder Kunde oder jeder Monat der nächsten Zurücksetzung des Filters ergibt (Alt+U)</translation>
    </message>
</context>
<context>
    <name>BalanceTotalsModel</name>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>(no plan)</source>
        <translation>(ohne Tarif)</translation>
    </message>
    <message>
        <source>Balances</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>Gewährt</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message numerus="yes">
        <source>%Ln balance(s)</source>
        <translation>
            <numerusform>%Ln Guthaben</numerusform>
            <numerusform>%Ln Guthaben</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln customer(s)</source>
        <translation>
            <numerusform>%Ln Kunde</numerusform>
            <numerusform>%Ln Kunden</numerusform>
        </translation>
    </message>
    <message>
        <source>granted %1</source>
        <translation>gewährt %1</translation>
    </message>
    <message>
        <source>remaining %1</source>
        <translation>verbleibend %1</translation>
    </message>
    <message>
        <source>used %1</source>
        <translation>verbraucht %1</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message numerus="yes">
        <source>%Ln feature(s): choose one to add up its amounts</source>
        <translation>
            <numerusform>%Ln Funktion: wählen Sie eine, um ihre Beträge zu summieren</numerusform>
            <numerusform>%Ln Funktionen: wählen Sie eine, um ihre Beträge zu summieren</numerusform>
        </translation>
    </message>
    <message>
        <source>choose a feature to add up amounts</source>
        <translation>wählen Sie eine Funktion, um Beträge zu summieren</translation>
    </message>
    <message>
        <source>Features count different things (API calls, credits, gigabytes), so their amounts are not added together: the total counts balances and customers.</source>
        <translation>Funktionen zählen Verschiedenes (API-Aufrufe, Guthabenpunkte, Gigabyte), daher werden ihre Beträge nicht zusammengezählt: die Summe zählt Guthaben und Kunden.</translation>
    </message>
    <message>
        <source>Features count different things (API calls, credits, gigabytes), so their amounts are not added together: choose a feature, or group by feature, to see them.</source>
        <translation>Funktionen zählen Verschiedenes (API-Aufrufe, Guthabenpunkte, Gigabyte), daher werden ihre Beträge nicht zusammengezählt: wählen Sie eine Funktion oder gruppieren Sie nach Funktion, um sie zu sehen.</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Summe</translation>
    </message>
    <message>
        <source>Next reset</source>
        <translation>Nächste Zurücksetzung</translation>
    </message>
    <message>
        <source>(never resets)</source>
        <translation>(wird nie zurückgesetzt)</translation>
    </message>
</context>
<context>
    <name>BalancesPage</name>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>Export balances</source>
        <translation>Guthaben exportieren</translation>
    </message>
    <message>
        <source>balances.csv</source>
        <translation>guthaben.csv</translation>
    </message>
    <message>
        <source>Balances could not be loaded: %1</source>
        <translation>Guthaben konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>No balances match. Clear the filters or load a workspace.</source>
        <translation>Keine Guthaben passen. Leeren Sie die Filter oder laden Sie einen Arbeitsbereich.</translation>
    </message>
    <message numerus="yes">
        <source>Loading balances… %Ln row(s) so far</source>
        <translation>
            <numerusform>Lade Guthaben … bisher %Ln Zeile</numerusform>
            <numerusform>Lade Guthaben … bisher %Ln Zeilen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s), more on scroll</source>
        <translation>
            <numerusform>%Ln Zeile, mehr beim Blättern</numerusform>
            <numerusform>%Ln Zeilen, mehr beim Blättern</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s)</source>
        <translation>
            <numerusform>%Ln Zeile</numerusform>
            <numerusform>%Ln Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Only customer %1</source>
        <translation>Nur Kunde %1</translation>
    </message>
    <message>
        <source>Only feature %1</source>
        <translation>Nur Funktion %1</translation>
    </message>
    <message>
        <source>Only plan %1</source>
        <translation>Nur Tarif %1</translation>
    </message>
    <message>
        <source>Only balances without a plan</source>
        <translation>Nur Guthaben ohne Tarif</translation>
    </message>
    <message>
        <source>&amp;Open customer</source>
        <translation>Kunde ö&amp;ffnen</translation>
    </message>
    <message numerus="yes">
        <source>%L1 of %Ln row(s) loaded, more on scroll</source>
        <translation>
            <numerusform>%L1 von %Ln Zeile geladen, weitere beim Blättern</numerusform>
            <numerusform>%L1 von %Ln Zeilen geladen, weitere beim Blättern</numerusform>
        </translation>
    </message>
    <message>
        <source>Balances report</source>
        <translation>Guthabenbericht</translation>
    </message>
    <message>
        <source>Print balances</source>
        <translation>Guthaben drucken</translation>
    </message>
    <message>
        <source>Print failed</source>
        <translation>Drucken fehlgeschlagen</translation>
    </message>
    <message>
        <source>Show balance &amp;detail</source>
        <translation>Guthaben&amp;details zeigen</translation>
    </message>
    <message>
        <source>Made balance %1: %2 of %3 for %4; it does not reset.</source>
        <translation>Guthaben %1 angelegt: %2 von %3 für %4; es wird nicht zurückgesetzt.</translation>
    </message>
    <message>
        <source>The table sorts by Customer, Remaining, Usage or Next reset: click one of those.</source>
        <translation>Die Tabelle sortiert nach Kunde, Verbleibend, Verbrauch oder Nächste Zurücksetzung: klicken Sie auf eine dieser Spalten.</translation>
    </message>
</context>
<context>
    <name>BillingControlsDialog</name>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>Grenze</translation>
    </message>
    <message>
        <source>Per</source>
        <translation>Je</translation>
    </message>
    <message>
        <source>Counted from</source>
        <translation>Gezählt ab</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Feature (empty: all)</source>
        <translation>Funktion (leer: alle)</translation>
    </message>
    <message>
        <source>Overage limit</source>
        <translation>Überziehungsgrenze</translation>
    </message>
    <message>
        <source>Measured as</source>
        <translation>Gemessen in</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wenn</translation>
    </message>
    <message>
        <source>Threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Overage allowed</source>
        <translation>Überziehung erlaubt</translation>
    </message>
    <message>
        <source>Billing controls of %1, entity %2</source>
        <translation>Abrechnungsregeln von %1, Entität %2</translation>
    </message>
    <message>
        <source>Billing controls of %1</source>
        <translation>Abrechnungsregeln von %1</translation>
    </message>
    <message>
        <source>&amp;Usage limits</source>
        <translation>&amp;Nutzungsgrenzen</translation>
    </message>
    <message>
        <source>S&amp;pend limits</source>
        <translation>A&amp;usgabengrenzen</translation>
    </message>
    <message>
        <source>A&amp;lerts</source>
        <translation>&amp;Warnungen</translation>
    </message>
    <message>
        <source>&amp;Overage</source>
        <translation>Über&amp;ziehung</translation>
    </message>
    <message>
        <source>Usage limits cap a feature&apos;s usage per interval: a capped call is cut to what is left, and refused once nothing is. Spend limits cap how far an overflowing call may take a balance below zero. Alerts are recorded when usage crosses their threshold. Overage allowed overrides the plan for overflowing calls.</source>
        <translation>Nutzungsgrenzen begrenzen die Nutzung einer Funktion je Intervall: Ein begrenzter Aufruf wird auf den Rest gekürzt und abgelehnt, sobald nichts mehr übrig ist. Ausgabengrenzen begrenzen, wie weit ein überziehender Aufruf ein Guthaben unter null bringen darf. Warnungen werden festgehalten, wenn die Nutzung ihre Schwelle überschreitet. „Überziehung erlaubt“ setzt für überziehende Aufrufe den Tarif außer Kraft.</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>&amp;Hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source>day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>week</source>
        <translation>Woche</translation>
    </message>
    <message>
        <source>month</source>
        <translation>Monat</translation>
    </message>
    <message>
        <source>year</source>
        <translation>Jahr</translation>
    </message>
    <message>
        <source>the billing cycle</source>
        <translation>dem Abrechnungszeitraum</translation>
    </message>
    <message>
        <source>the calendar (UTC)</source>
        <translation>dem Kalender (UTC)</translation>
    </message>
    <message>
        <source>units</source>
        <translation>Einheiten</translation>
    </message>
    <message>
        <source>% of the included allowance</source>
        <translation>% des Inklusivkontingents</translation>
    </message>
    <message>
        <source>usage reaches (units)</source>
        <translation>Nutzung erreicht (Einheiten)</translation>
    </message>
    <message>
        <source>usage reaches (%)</source>
        <translation>Nutzung erreicht (%)</translation>
    </message>
    <message>
        <source>remaining falls to (units)</source>
        <translation>Rest fällt auf (Einheiten)</translation>
    </message>
    <message>
        <source>remaining falls to (%)</source>
        <translation>Rest fällt auf (%)</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>Jetzt</translation>
    </message>
    <message>
        <source>What the alert watches now, across the balances its calls draw on</source>
        <translation>Was die Warnung jetzt beobachtet, über die Guthaben, aus denen ihre Aufrufe schöpfen</translation>
    </message>
    <message>
        <source>The balances could not be read, so the alerts are not compared with them: %1</source>
        <translation>Die Guthaben konnten nicht gelesen werden, daher werden die Warnungen nicht mit ihnen verglichen: %1</translation>
    </message>
</context>
<context>
    <name>BillingControlsEdit</name>
    <message>
        <source>every feature</source>
        <translation>jede Funktion</translation>
    </message>
    <message>
        <source>%1: at most %2 a %3%4%5</source>
        <translation>%1: höchstens %2 pro %3%4%5</translation>
    </message>
    <message>
        <source> (UTC)</source>
        <translation> (UTC)</translation>
    </message>
    <message>
        <source> (%1 used)</source>
        <translation> (%1 genutzt)</translation>
    </message>
    <message>
        <source>, off</source>
        <translation>, aus</translation>
    </message>
    <message>
        <source>%1: overage at most %2%3</source>
        <translation>%1: Überziehung höchstens %2%3</translation>
    </message>
    <message>
        <source> % of the included allowance</source>
        <translation> % des Inklusivkontingents</translation>
    </message>
    <message>
        <source>%1: alert when %2%3</source>
        <translation>%1: Warnung, wenn %2%3</translation>
    </message>
    <message>
        <source> (&quot;%1&quot;)</source>
        <translation> („%1“)</translation>
    </message>
    <message>
        <source>%1: overage allowed</source>
        <translation>%1: Überziehung erlaubt</translation>
    </message>
    <message>
        <source>%1: no overage</source>
        <translation>%1: keine Überziehung</translation>
    </message>
    <message>
        <source>Usage limits</source>
        <translation>Nutzungsgrenzen</translation>
    </message>
    <message>
        <source>Spend limits</source>
        <translation>Ausgabengrenzen</translation>
    </message>
    <message>
        <source>Usage alerts</source>
        <translation>Nutzungswarnungen</translation>
    </message>
    <message>
        <source>Overage allowed</source>
        <translation>Überziehung erlaubt</translation>
    </message>
    <message>
        <source>day</source>
        <translation>Tag</translation>
    </message>
    <message>
        <source>week</source>
        <translation>Woche</translation>
    </message>
    <message>
        <source>month</source>
        <translation>Monat</translation>
    </message>
    <message>
        <source>year</source>
        <translation>Jahr</translation>
    </message>
    <message>
        <source>no balance</source>
        <translation>kein Guthaben</translation>
    </message>
    <message>
        <source>no grant</source>
        <translation>keine Gewährung</translation>
    </message>
    <message>
        <source>%1 used</source>
        <translation>%1 verbraucht</translation>
    </message>
    <message>
        <source>%1 remaining</source>
        <translation>%1 verbleibend</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Usage alert %1</source>
        <translation>Nutzungswarnung %1</translation>
    </message>
    <message>
        <source>Usage alert &quot;%1&quot;</source>
        <translation>Nutzungswarnung „%1“</translation>
    </message>
    <message>
        <source>%1: %2 has no grant, so a percentage of it cannot fire.</source>
        <translation>%1: %2 hat keine Gewährung, daher kann ein Prozentsatz davon nicht auslösen.</translation>
    </message>
    <message>
        <source>%1: the usage of %2 is already %3, past the threshold of %4, so it cannot fire until a reset brings the usage back below it.</source>
        <translation>%1: Der Verbrauch von %2 liegt schon bei %3, über der Schwelle von %4; sie kann erst auslösen, wenn eine Zurücksetzung den Verbrauch wieder darunter bringt.</translation>
    </message>
    <message>
        <source>%1: %2 already has %3 remaining, at or below the threshold of %4, so it cannot fire until a reset or a top-up brings it back above it.</source>
        <translation>%1: Bei %2 verbleiben schon %3, auf oder unter der Schwelle von %4; sie kann erst auslösen, wenn eine Zurücksetzung oder Aufladung den Betrag wieder darüber bringt.</translation>
    </message>
</context>
<context>
    <name>ChangeReview</name>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>These changes will be saved:</source>
        <translation>Diese Änderungen werden gespeichert:</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
</context>
<context>
    <name>ChargeLinesModel</name>
    <message>
        <source>Plan %1, quantity %2</source>
        <translation>Tarif %1, Menge %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>%1: within the grant</source>
        <translation>%1: innerhalb des Kontingents</translation>
    </message>
    <message>
        <source>%1: %2 past the grant, billed as %3</source>
        <translation>%1: %2 über dem Kontingent, abgerechnet als %3</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Posten</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Menge</translation>
    </message>
    <message>
        <source>Billed units</source>
        <translation>Abgerechnete Einheiten</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>%1: %2 bought, billed as %3</source>
        <translation>%1: %2 gekauft, berechnet als %3</translation>
    </message>
    <message>
        <source>%1: %2 in credits bought, billed as %3</source>
        <translation>%1: %2 an Guthaben gekauft, berechnet als %3</translation>
    </message>
</context>
<context>
    <name>ChargePeriodsModel</name>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>closed %1</source>
        <translation>abgeschlossen %1</translation>
    </message>
    <message>
        <source>open, so far</source>
        <translation>offen, bisher</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>Zeitraum</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Abrechnung</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Summe</translation>
    </message>
</context>
<context>
    <name>CommandPalette</name>
    <message>
        <source>Command palette</source>
        <translation>Befehlspalette</translation>
    </message>
    <message>
        <source>Type to find an action; Enter runs it</source>
        <translation>Tippen, um eine Aktion zu finden; Eingabe führt sie aus</translation>
    </message>
    <message>
        <source>%1	%2</source>
        <translation>%1	%2</translation>
    </message>
</context>
<context>
    <name>ConnectionDialog</name>
    <message>
        <source>&amp;Embedded workspace file (SQLite)</source>
        <translation>&amp;Eingebettete Arbeitsbereichsdatei (SQLite)</translation>
    </message>
    <message>
        <source>&amp;Shared PostgreSQL database</source>
        <translation>&amp;Gemeinsame PostgreSQL-Datenbank</translation>
    </message>
    <message>
        <source>&amp;Remote billing server</source>
        <translation>Entfernter &amp;Abrechnungsserver</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>/path/to/workspace.db (created if missing)</source>
        <translation>/pfad/zu/arbeitsbereich.db (wird bei Bedarf angelegt)</translation>
    </message>
    <message>
        <source>postgresql://user:password@host:5432/database</source>
        <translation>postgresql://benutzer:passwort@host:5432/datenbank</translation>
    </message>
    <message>
        <source>https://billing.example.com</source>
        <translation>https://billing.example.com</translation>
    </message>
    <message>
        <source>sk_test_… or sk_live_…</source>
        <translation>sk_test_… oder sk_live_…</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>Datei:</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL:</translation>
    </message>
    <message>
        <source>Server:</source>
        <translation>Server:</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API-Schlüssel:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>Recent connections:</source>
        <translation>Letzte Verbindungen:</translation>
    </message>
    <message>
        <source>Workspace file</source>
        <translation>Arbeitsbereichsdatei</translation>
    </message>
    <message>
        <source>Workspaces (*.db);;All files (*)</source>
        <translation>Arbeitsbereiche (*.db);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde …</translation>
    </message>
    <message>
        <source>Connected: organization %1, %2 environment.</source>
        <translation>Verbunden: Organisation %1, Umgebung %2.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The key is kept in your system keychain.</source>
        <translation>Der Schlüssel wird im Schlüsselbund Ihres Systems aufbewahrt.</translation>
    </message>
    <message>
        <source>No system keychain is available: the key is kept for this session only and you will be asked again next time.</source>
        <translation>Kein Systemschlüsselbund verfügbar: Der Schlüssel gilt nur für diese Sitzung, beim nächsten Mal werden Sie erneut gefragt.</translation>
    </message>
    <message>
        <source>Looking for a system keychain to keep the key in…</source>
        <translation>Suche nach einem Schlüsselbund des Systems, um den Schlüssel aufzubewahren…</translation>
    </message>
</context>
<context>
    <name>Console</name>
    <message>
        <source>Empty workspace</source>
        <translation>Leerer Arbeitsbereich</translation>
    </message>
    <message>
        <source>This workspace is empty. Load the demo workspace to look around?</source>
        <translation>Dieser Arbeitsbereich ist leer. Den Demo-Arbeitsbereich laden, um sich umzusehen?</translation>
    </message>
    <message>
        <source>Price catalogue not loaded</source>
        <translation>Preiskatalog nicht geladen</translation>
    </message>
    <message>
        <source>%1 was not loaded; the catalogue in use stays.

%2</source>
        <translation>%1 wurde nicht geladen; der bisherige Katalog bleibt in Gebrauch.

%2</translation>
    </message>
    <message numerus="yes">
        <source>Prices from %1: %Ln models</source>
        <translation>
            <numerusform>Preise aus %1: %Ln Modell</numerusform>
            <numerusform>Preise aus %1: %Ln Modelle</numerusform>
        </translation>
    </message>
    <message>
        <source>Load a price catalogue</source>
        <translation>Einen Preiskatalog laden</translation>
    </message>
    <message>
        <source>models.dev catalogue (*.json);;All files (*)</source>
        <translation>models.dev-Katalog (*.json);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>CustomerBalancesModel</name>
    <message>
        <source>Feature / balance</source>
        <translation>Funktion / Guthaben</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Granted</source>
        <translation>Gewährt</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>Verbleibend</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>Next reset</source>
        <translation>Nächste Zurücksetzung</translation>
    </message>
    <message>
        <source>Unlimited</source>
        <translation>Unbegrenzt</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
</context>
<context>
    <name>CustomerChargesTab</name>
    <message>
        <source>Export &amp;PDF…</source>
        <translation>&amp;PDF exportieren …</translation>
    </message>
    <message>
        <source>Export &amp;workbook…</source>
        <translation>Arbeitsmappe e&amp;xportieren …</translation>
    </message>
    <message>
        <source>Select a customer to see what they owe.</source>
        <translation>Wählen Sie einen Kunden, um zu sehen, was er schuldet.</translation>
    </message>
    <message>
        <source>No charges yet.</source>
        <translation>Noch keine Posten.</translation>
    </message>
    <message>
        <source>Charges could not be read: %1</source>
        <translation>Die Posten konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Reading what %1 owes…</source>
        <translation>Lese, was %1 schuldet …</translation>
    </message>
    <message>
        <source>Statement for %1: %2 %3, closed %4</source>
        <translation>Abrechnung für %1: %2 %3, abgeschlossen %4</translation>
    </message>
    <message>
        <source>This period so far, %1: %2 %3</source>
        <translation>Dieser Zeitraum bisher, %1: %2 %3</translation>
    </message>
    <message>
        <source>Export statement</source>
        <translation>Abrechnung exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel-Arbeitsmappe (*.xlsx)</translation>
    </message>
</context>
<context>
    <name>CustomerControlsTab</name>
    <message>
        <source>&amp;Edit billing controls…</source>
        <translation>Abrechnungsregeln &amp;bearbeiten …</translation>
    </message>
    <message>
        <source>the customer itself</source>
        <translation>der Kunde selbst</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>S&amp;how</source>
        <translation>&amp;Zeigen</translation>
    </message>
    <message>
        <source>Controls of entity:</source>
        <translation>Regeln der Entität:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Usage alerts&lt;/b&gt; that fired, newest first:</source>
        <translation>Ausgelöste &lt;b&gt;Nutzungswarnungen&lt;/b&gt;, neueste zuerst:</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Lade …</translation>
    </message>
    <message>
        <source>The controls could not be read: %1</source>
        <translation>Die Regeln konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>No billing controls: usage is limited only by the balances.</source>
        <translation>Keine Abrechnungsregeln: Die Nutzung begrenzen nur die Guthaben.</translation>
    </message>
</context>
<context>
    <name>CustomerListModel</name>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Email</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
</context>
<context>
    <name>CustomerSearchField</name>
    <message>
        <source>all customers: type part of an id, name or email</source>
        <translation>alle Kunden: Teil einer ID, eines Namens oder einer E-Mail eingeben</translation>
    </message>
    <message>
        <source> — %1</source>
        <translation> — %1</translation>
    </message>
    <message>
        <source> &lt;%1&gt;</source>
        <translation> &lt;%1&gt;</translation>
    </message>
    <message>
        <source>No customer&apos;s id, name or email contains &quot;%1&quot;. Check the spelling, or clear the field for all customers.</source>
        <translation>Keine ID, kein Name und keine E-Mail eines Kunden enthält „%1“. Prüfen Sie die Schreibweise oder leeren Sie das Feld für alle Kunden.</translation>
    </message>
    <message numerus="yes">
        <source>More than %n customer(s) match &quot;%1&quot;: type more of the id, name or email, or choose one from the list.</source>
        <translation>
            <numerusform>Mehr als %n Kunde passt zu „%1“: Geben Sie mehr von ID, Name oder E-Mail ein, oder wählen Sie einen aus der Liste.</numerusform>
            <numerusform>Mehr als %n Kunden passen zu „%1“: Geben Sie mehr von ID, Name oder E-Mail ein, oder wählen Sie einen aus der Liste.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) match &quot;%1&quot;: choose one from the list.</source>
        <translation>
            <numerusform>%n Kunde passt zu „%1“: Wählen Sie ihn aus der Liste.</numerusform>
            <numerusform>%n Kunden passen zu „%1“: Wählen Sie einen aus der Liste.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CustomersPage</name>
    <message>
        <source>Open &amp;billing portal</source>
        <translation>&amp;Abrechnungsportal öffnen</translation>
    </message>
    <message>
        <source>Search id, name or email</source>
        <translation>ID, Name oder E-Mail suchen</translation>
    </message>
    <message>
        <source>Select a customer to see their identity, balances, subscriptions and flags.</source>
        <translation>Wählen Sie einen Kunden, um Identität, Guthaben, Abonnements und Flags zu sehen.</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Begonnen</translation>
    </message>
    <message>
        <source>Trial ends</source>
        <translation>Testphase endet</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Menge</translation>
    </message>
    <message>
        <source>Add-on</source>
        <translation>Zusatz</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>&amp;Überblick</translation>
    </message>
    <message>
        <source>B&amp;alances</source>
        <translation>&amp;Guthaben</translation>
    </message>
    <message>
        <source>&amp;Subscriptions</source>
        <translation>&amp;Abonnements</translation>
    </message>
    <message>
        <source>F&amp;lags</source>
        <translation>&amp;Flags</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Lade %1 …</translation>
    </message>
    <message>
        <source>%1 could not be loaded: %2</source>
        <translation>%1 konnte nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>%1: %2&lt;br&gt;</source>
        <translation>%1: %2&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;%1&lt;/h3&gt;&lt;p&gt;%2&lt;br&gt;%3&lt;/p&gt;&lt;p&gt;&lt;b&gt;Created&lt;/b&gt; %4&lt;br&gt;&lt;b&gt;Environment&lt;/b&gt; %5&lt;br&gt;&lt;b&gt;Email receipts&lt;/b&gt; %6&lt;/p&gt;&lt;p&gt;&lt;b&gt;Processors&lt;/b&gt;&lt;br&gt;%7&lt;/p&gt;&lt;p&gt;&lt;b&gt;Metadata&lt;/b&gt;&lt;br&gt;%8&lt;/p&gt;&lt;p&gt;&lt;b&gt;Pooled balances&lt;/b&gt; %9&lt;br&gt;&lt;b&gt;Overage billing&lt;/b&gt; %10&lt;/p&gt;</source>
        <translation>&lt;h3&gt;%1&lt;/h3&gt;&lt;p&gt;%2&lt;br&gt;%3&lt;/p&gt;&lt;p&gt;&lt;b&gt;Erstellt&lt;/b&gt; %4&lt;br&gt;&lt;b&gt;Umgebung&lt;/b&gt; %5&lt;br&gt;&lt;b&gt;E-Mail-Belege&lt;/b&gt; %6&lt;/p&gt;&lt;p&gt;&lt;b&gt;Zahlungsanbieter&lt;/b&gt;&lt;br&gt;%7&lt;/p&gt;&lt;p&gt;&lt;b&gt;Metadaten&lt;/b&gt;&lt;br&gt;%8&lt;/p&gt;&lt;p&gt;&lt;b&gt;Gepoolte Guthaben&lt;/b&gt; %9&lt;br&gt;&lt;b&gt;Mehrverbrauchsabrechnung&lt;/b&gt; %10&lt;/p&gt;</translation>
    </message>
    <message>
        <source>test (sandbox)</source>
        <translation>Test (Sandbox)</translation>
    </message>
    <message>
        <source>live (production)</source>
        <translation>Live (Produktion)</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>deaktiviert</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>aktiviert</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>no plan</source>
        <translation>kein Tarif</translation>
    </message>
    <message>
        <source>No flags.</source>
        <translation>Keine Flags.</translation>
    </message>
    <message>
        <source>Billing portal</source>
        <translation>Abrechnungsportal</translation>
    </message>
    <message>
        <source>The billing portal could not be opened: %1</source>
        <translation>Das Abrechnungsportal konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>&amp;Usage</source>
        <translation>&amp;Verbrauch</translation>
    </message>
    <message>
        <source>Current period</source>
        <translation>Aktueller Zeitraum</translation>
    </message>
    <message>
        <source>Co&amp;ntrols</source>
        <translation>&amp;Regeln</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>Export &amp;customers…</source>
        <translation>Kunden &amp;exportieren …</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
    <message>
        <source>Export customers</source>
        <translation>Kunden exportieren</translation>
    </message>
    <message>
        <source>customers.csv</source>
        <translation>kunden.csv</translation>
    </message>
    <message>
        <source>C&amp;harges</source>
        <translation>&amp;Posten</translation>
    </message>
    <message>
        <source>Compare the plans imported from Stripe subscriptions with Stripe now: the selected customer&apos;s, or every customer&apos;s when none is selected</source>
        <translation>Die aus Stripe-Abonnements importierten Tarife mit dem jetzigen Stand bei Stripe vergleichen: die des gewählten Kunden, oder aller Kunden, wenn keiner gewählt ist</translation>
    </message>
    <message>
        <source>Check against Stri&amp;pe…</source>
        <translation>Mit Stri&amp;pe abgleichen…</translation>
    </message>
</context>
<context>
    <name>EditableListModel</name>
    <message>
        <source>There is no change to undo.</source>
        <translation>Es gibt keine Änderung zum Rückgängigmachen.</translation>
    </message>
</context>
<context>
    <name>EditorPage</name>
    <message>
        <source>&amp;Undo last change</source>
        <translation>Letzte Änderung &amp;rückgängig</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>&amp;Bearbeiten …</translation>
    </message>
    <message>
        <source>The change was not undone: %1</source>
        <translation>Die Änderung wurde nicht rückgängig gemacht: %1</translation>
    </message>
    <message>
        <source>Undid the last change to %1.</source>
        <translation>Letzte Änderung an %1 rückgängig gemacht.</translation>
    </message>
    <message>
        <source>Undo last change</source>
        <translation>Letzte Änderung rückgängig machen</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig machen</translation>
    </message>
</context>
<context>
    <name>ExportButton</name>
    <message>
        <source>Every row, not only those on screen, as CSV or as an Excel workbook</source>
        <translation>Alle Zeilen, nicht nur die sichtbaren, als CSV oder als Excel-Arbeitsmappe</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source>Saved %Ln row(s).</source>
        <translation>
            <numerusform>%Ln Zeile gespeichert.</numerusform>
            <numerusform>%Ln Zeilen gespeichert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Saving every row…</source>
        <translation>Alle Zeilen werden gespeichert …</translation>
    </message>
</context>
<context>
    <name>FailedEventModel</name>
    <message>
        <source>Failed</source>
        <translation>Gescheitert</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>%1 (%2 %3), received %4</source>
        <translation>%1 (%2 %3), angenommen %4</translation>
    </message>
</context>
<context>
    <name>FailedEventsPanel</name>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>&amp;Discard…</source>
        <translation>&amp;Verwerfen …</translation>
    </message>
    <message>
        <source>Apply the selected calls again, once what stopped them is fixed</source>
        <translation>Die gewählten Aufrufe erneut anwenden, sobald behoben ist, was sie aufhielt</translation>
    </message>
    <message>
        <source>Drop the selected calls: their usage is not recorded</source>
        <translation>Die gewählten Aufrufe verwerfen: Ihre Nutzung wird nicht erfasst</translation>
    </message>
    <message>
        <source>Failed events could not be read: %1</source>
        <translation>Gescheiterte Aufrufe konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Failed events&lt;/b&gt;: none; every accepted call was applied.</source>
        <translation>&lt;b&gt;Gescheiterte Aufrufe&lt;/b&gt;: keine; jeder angenommene Aufruf wurde angewendet.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Failed events&lt;/b&gt;: %Ln accepted call(s) could not be applied and are kept here.</source>
        <translation>
            <numerusform>&lt;b&gt;Gescheiterte Aufrufe&lt;/b&gt;: %Ln angenommener Aufruf konnte nicht angewendet werden und wird hier aufbewahrt.</numerusform>
            <numerusform>&lt;b&gt;Gescheiterte Aufrufe&lt;/b&gt;: %Ln angenommene Aufrufe konnten nicht angewendet werden und werden hier aufbewahrt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Discard failed events</source>
        <translation>Gescheiterte Aufrufe verwerfen</translation>
    </message>
    <message numerus="yes">
        <source>Discard %Ln call(s)? Their usage will not be recorded.</source>
        <translation>
            <numerusform>%Ln Aufruf verwerfen? Seine Nutzung wird nicht erfasst.</numerusform>
            <numerusform>%Ln Aufrufe verwerfen? Ihre Nutzung wird nicht erfasst.</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was changed: %1</source>
        <translation>Nichts wurde geändert: %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln call(s) put back to be applied.</source>
        <translation>
            <numerusform>%Ln Aufruf wird erneut angewendet.</numerusform>
            <numerusform>%Ln Aufrufe werden erneut angewendet.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln call(s) discarded.</source>
        <translation>
            <numerusform>%Ln Aufruf verworfen.</numerusform>
            <numerusform>%Ln Aufrufe verworfen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FieldWords</name>
    <message>
        <source>item %1</source>
        <translation>Position %1</translation>
    </message>
    <message>
        <source>tiers</source>
        <translation>Staffeln</translation>
    </message>
    <message>
        <source>tier %1</source>
        <translation>Staffel %1</translation>
    </message>
    <message>
        <source>promo code %1</source>
        <translation>Aktionscode %1</translation>
    </message>
    <message>
        <source>plan %1</source>
        <translation>Tarif %1</translation>
    </message>
    <message>
        <source>grant %1</source>
        <translation>Gutschrift %1</translation>
    </message>
    <message>
        <source>usage limit %1</source>
        <translation>Nutzungsgrenze %1</translation>
    </message>
    <message>
        <source>spend limit %1</source>
        <translation>Ausgabengrenze %1</translation>
    </message>
    <message>
        <source>usage alert %1</source>
        <translation>Nutzungswarnung %1</translation>
    </message>
    <message>
        <source>overage setting %1</source>
        <translation>Überziehungseinstellung %1</translation>
    </message>
    <message>
        <source>billable %1</source>
        <translation>Abrechenbares %1</translation>
    </message>
    <message>
        <source>balance %1</source>
        <translation>Guthaben %1</translation>
    </message>
    <message>
        <source>feature grant</source>
        <translation>Funktionsgutschrift</translation>
    </message>
    <message>
        <source>coupon</source>
        <translation>Gutschein</translation>
    </message>
    <message>
        <source>billing controls</source>
        <translation>Abrechnungsregeln</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>customer id</source>
        <translation>Kunden-ID</translation>
    </message>
    <message>
        <source>feature id</source>
        <translation>Funktions-ID</translation>
    </message>
    <message>
        <source>included usage</source>
        <translation>inklusive Nutzung</translation>
    </message>
    <message>
        <source>included amount</source>
        <translation>inklusive Menge</translation>
    </message>
    <message>
        <source>price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>billing units</source>
        <translation>Abrechnungseinheiten</translation>
    </message>
    <message>
        <source>up-to value</source>
        <translation>Bis-Wert</translation>
    </message>
    <message>
        <source>amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>flat amount</source>
        <translation>Pauschalbetrag</translation>
    </message>
    <message>
        <source>code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>limit</source>
        <translation>Grenze</translation>
    </message>
    <message>
        <source>overage limit</source>
        <translation>Überziehungsgrenze</translation>
    </message>
    <message>
        <source>threshold</source>
        <translation>Schwelle</translation>
    </message>
    <message>
        <source>reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>ist erforderlich</translation>
    </message>
    <message>
        <source>must be text</source>
        <translation>muss Text sein</translation>
    </message>
    <message>
        <source>must be true or false</source>
        <translation>muss wahr oder falsch sein</translation>
    </message>
    <message>
        <source>must be a whole number</source>
        <translation>muss eine ganze Zahl sein</translation>
    </message>
    <message>
        <source>must be a number or &quot;inf&quot;</source>
        <translation>muss eine Zahl oder „inf“ sein</translation>
    </message>
    <message>
        <source>must be a JSON object</source>
        <translation>muss ein JSON-Objekt sein</translation>
    </message>
    <message>
        <source>must be a list</source>
        <translation>muss eine Liste sein</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>must not be negative</source>
        <translation>darf nicht negativ sein</translation>
    </message>
    <message>
        <source>must be greater than 0</source>
        <translation>muss größer als 0 sein</translation>
    </message>
    <message>
        <source>must hold at least one tier</source>
        <translation>muss mindestens eine Staffel enthalten</translation>
    </message>
    <message>
        <source>cannot be combined with a price</source>
        <translation>kann nicht mit einem Preis kombiniert werden</translation>
    </message>
    <message>
        <source>may be &quot;inf&quot; in the last tier only</source>
        <translation>darf nur in der letzten Staffel „inf“ sein</translation>
    </message>
    <message>
        <source>must be greater than the previous tier&apos;s</source>
        <translation>muss größer sein als der der vorigen Staffel</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2</source>
        <translation>muss eine ganze Zahl von %1 bis %2 sein</translation>
    </message>
    <message>
        <source>must be a whole number from %1 to %2, not %3</source>
        <translation>muss eine ganze Zahl von %1 bis %2 sein, nicht %3</translation>
    </message>
    <message>
        <source>must be one of %2, not &quot;%1&quot;</source>
        <translation>muss eines von %2 sein, nicht „%1“</translation>
    </message>
    <message>
        <source>must have at most %3 decimal places, never rounded (%1 has %2)</source>
        <translation>darf höchstens %3 Nachkommastellen haben, es wird nie gerundet (%1 hat %2)</translation>
    </message>
    <message>
        <source>must be below 10^20 in size (%1 is not)</source>
        <translation>muss betragsmäßig unter 10^20 liegen (%1 tut es nicht)</translation>
    </message>
    <message>
        <source>must be at most %1 characters, not %2</source>
        <translation>darf höchstens %1 Zeichen lang sein, nicht %2</translation>
    </message>
    <message>
        <source>the %1</source>
        <translation>das Feld „%1“</translation>
    </message>
    <message>
        <source>repeats %1</source>
        <translation>wiederholt %1</translation>
    </message>
    <message>
        <source>must not be blank</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>must not hold control or bidi formatting characters (%1 at character %2)</source>
        <translation>darf keine Steuer- oder Bidi-Formatierungszeichen enthalten (%1 an Zeichen %2)</translation>
    </message>
    <message>
        <source>must end with a tier up to &quot;inf&quot;: usage above %1 would have no price</source>
        <translation>muss mit einer Staffel bis „inf“ enden: Verbrauch über %1 hätte keinen Preis</translation>
    </message>
    <message>
        <source>must be a number, written like 1234.5: digits and a point, no thousands separators</source>
        <translation>muss eine Zahl sein, geschrieben wie 1234.5: Ziffern und ein Punkt, ohne Tausendertrennzeichen</translation>
    </message>
    <message>
        <source>must not be negative (&quot;all&quot; keeps everything)</source>
        <translation>darf nicht negativ sein („all“ behält alles)</translation>
    </message>
    <message>
        <source>must be a whole number, %1 or more</source>
        <translation>muss eine ganze Zahl sein, %1 oder mehr</translation>
    </message>
    <message>
        <source>must be a whole number, %1 or more, not %2</source>
        <translation>muss eine ganze Zahl sein, %1 oder mehr, nicht %2</translation>
    </message>
</context>
<context>
    <name>FilterChoices</name>
    <message>
        <source>The features could not be loaded: %1</source>
        <translation>Die Funktionen konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>The plans could not be loaded: %1</source>
        <translation>Die Tarife konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>Customers could not be searched: %1</source>
        <translation>Kunden konnten nicht gesucht werden: %1</translation>
    </message>
</context>
<context>
    <name>FormDialog</name>
    <message>
        <source>Re&amp;view changes…</source>
        <translation>Änderungen &amp;prüfen …</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Zurück</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Nothing has changed yet</source>
        <translation>Noch nichts geändert</translation>
    </message>
    <message>
        <source>Discard changes</source>
        <translation>Änderungen verwerfen</translation>
    </message>
    <message>
        <source>Your changes in this form are not saved. Discard them?</source>
        <translation>Ihre Änderungen in diesem Formular sind nicht gespeichert. Verwerfen?</translation>
    </message>
    <message>
        <source>&amp;Discard changes</source>
        <translation>Änderungen &amp;verwerfen</translation>
    </message>
    <message>
        <source>&amp;Keep editing</source>
        <translation>&amp;Weiter bearbeiten</translation>
    </message>
</context>
<context>
    <name>ImportBatch</name>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Body</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>Importieren</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
</context>
<context>
    <name>ImportChanges</name>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>aktualisiert</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>abgelaufen</translation>
    </message>
    <message>
        <source>mismatch</source>
        <translation>Abweichung</translation>
    </message>
    <message>
        <source>error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>%1 expires</source>
        <translation>%1 läuft ab</translation>
    </message>
    <message>
        <source>+ %1 (%2)</source>
        <translation>+ %1 (%2)</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>email</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>fingerprint</source>
        <translation>Fingerabdruck</translation>
    </message>
    <message>
        <source>created</source>
        <translation>angelegt</translation>
    </message>
    <message>
        <source>Stripe id</source>
        <translation>Stripe-ID</translation>
    </message>
    <message>
        <source>RevenueCat id</source>
        <translation>RevenueCat-ID</translation>
    </message>
    <message>
        <source>unchanged: already in force</source>
        <translation>unverändert: schon in Kraft</translation>
    </message>
    <message>
        <source>unchanged: already ended</source>
        <translation>unverändert: schon beendet</translation>
    </message>
    <message>
        <source>%1 changes</source>
        <translation>%1 ändert sich</translation>
    </message>
    <message>
        <source>already imported: nothing changes</source>
        <translation>schon importiert: nichts ändert sich</translation>
    </message>
    <message>
        <source>nothing changes</source>
        <translation>nichts ändert sich</translation>
    </message>
    <message>
        <source>%1 is canceled</source>
        <translation>%1 wird gekündigt</translation>
    </message>
    <message>
        <source>%1: the source says %2, Stripe %3</source>
        <translation>%1: die Quelle sagt %2, Stripe %3</translation>
    </message>
    <message>
        <source>reported usage exceeds the plan&apos;s grant</source>
        <translation>der gemeldete Verbrauch übersteigt das Kontingent des Tarifs</translation>
    </message>
    <message>
        <source>Stripe says otherwise, and Stripe&apos;s is imported: %1</source>
        <translation>Stripe sagt anderes, und Stripes Stand wird importiert: %1</translation>
    </message>
</context>
<context>
    <name>ImportChecks</name>
    <message numerus="yes">
        <source>customer %1 is also on line(s) %2; leave out all but one</source>
        <translation>
            <numerusform>Kunde %1 steht auch in Zeile %2; lassen Sie alle bis auf eine weg</numerusform>
            <numerusform>Kunde %1 steht auch in den Zeilen %2; lassen Sie alle bis auf eine weg</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a plan of this workspace (%2): the import would refuse this customer. Fix the cell, map the value on the Mapping page, or leave the row out</source>
        <translation>„%1“ ist kein Plan dieses Arbeitsbereichs (%2): Der Import würde diesen Kunden ablehnen. Berichtigen Sie die Zelle, ordnen Sie den Wert auf der Seite „Zuordnung“ zu oder lassen Sie die Zeile weg</translation>
    </message>
    <message>
        <source>it has none</source>
        <translation>er hat keine</translation>
    </message>
</context>
<context>
    <name>ImportCommitPage</name>
    <message>
        <source>Commit</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Each customer is imported in one transaction and written to the journal.</source>
        <translation>Jeder Kunde wird in einer Transaktion importiert und ins Journal geschrieben.</translation>
    </message>
    <message>
        <source>Stopping after the customer in flight…</source>
        <translation>Halte nach dem laufenden Kunden an …</translation>
    </message>
    <message numerus="yes">
        <source>Importing %n customer(s) into %1.
Journal: %2</source>
        <translation>
            <numerusform>Importiere %n Kunden nach %1.
Journal: %2</numerusform>
            <numerusform>Importiere %n Kunden nach %1.
Journal: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing was imported: %1</source>
        <translation>Nichts wurde importiert: %1</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>Ab&amp;brechen</translation>
    </message>
    <message>
        <source>Committing…</source>
        <translation>Übernehme …</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Angehalten: %1</translation>
    </message>
    <message numerus="yes">
        <source>Stopped with %n customer(s) not imported yet. Continue now, or open the same source later to resume.</source>
        <translation>
            <numerusform>Angehalten; %n Kunde ist noch nicht importiert. Setzen Sie jetzt fort oder öffnen Sie dieselbe Quelle später erneut.</numerusform>
            <numerusform>Angehalten; %n Kunden sind noch nicht importiert. Setzen Sie jetzt fort oder öffnen Sie dieselbe Quelle später erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>C&amp;ontinue</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>The earlier journal is kept as %1.</source>
        <translation>Das frühere Journal bleibt als %1 erhalten.</translation>
    </message>
</context>
<context>
    <name>ImportJournal</name>
    <message>
        <source>cannot read the journal %1: %2</source>
        <translation>das Journal %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>cannot set the earlier journal aside as %1</source>
        <translation>das frühere Journal kann nicht als %1 beiseitegelegt werden</translation>
    </message>
    <message>
        <source>cannot write the journal %1: %2</source>
        <translation>das Journal %1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>ImportMappingPage</name>
    <message>
        <source>Mapping</source>
        <translation>Zuordnung</translation>
    </message>
    <message>
        <source>Say what each column holds. Columns named like the fields (customer_id, plan_id, usage:api_calls, …) are mapped already.</source>
        <translation>Geben Sie an, was jede Spalte enthält. Spalten, die wie die Felder heißen (customer_id, plan_id, usage:api_calls, …), sind bereits zugeordnet.</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>First value</source>
        <translation>Erster Wert</translation>
    </message>
    <message>
        <source>Is</source>
        <translation>Ist</translation>
    </message>
    <message>
        <source>Feature id (usage)</source>
        <translation>Funktions-ID (Verbrauch)</translation>
    </message>
    <message>
        <source>(no profile)</source>
        <translation>(kein Profil)</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Anwenden</translation>
    </message>
    <message>
        <source>Sa&amp;ve as profile…</source>
        <translation>Als Profil &amp;speichern …</translation>
    </message>
    <message>
        <source>&amp;Delete profile</source>
        <translation>Profil &amp;löschen</translation>
    </message>
    <message>
        <source>P&amp;rofile:</source>
        <translation>P&amp;rofil:</translation>
    </message>
    <message>
        <source>Save mapping</source>
        <translation>Zuordnung speichern</translation>
    </message>
    <message>
        <source>Profile name:</source>
        <translation>Profilname:</translation>
    </message>
    <message>
        <source>(not imported)</source>
        <translation>(nicht importiert)</translation>
    </message>
    <message>
        <source>Customer id</source>
        <translation>Kunden-ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Email</source>
        <translation>E-Mail</translation>
    </message>
    <message>
        <source>Stripe id</source>
        <translation>Stripe-ID</translation>
    </message>
    <message>
        <source>RevenueCat id</source>
        <translation>RevenueCat-ID</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Usage of a feature</source>
        <translation>Verbrauch einer Funktion</translation>
    </message>
    <message>
        <source>Map a column to the customer id.</source>
        <translation>Ordnen Sie der Kunden-ID eine Spalte zu.</translation>
    </message>
    <message>
        <source>No plan column: customers are imported without plans.</source>
        <translation>Keine Tarifspalte: Kunden werden ohne Tarife importiert.</translation>
    </message>
    <message>
        <source>Plan &amp;values…</source>
        <translation>Plan&amp;werte …</translation>
    </message>
    <message>
        <source>Also</source>
        <translation>Außerdem</translation>
    </message>
    <message>
        <source>Say which plan each value of the plan column stands for (&quot;Pro Monthly&quot; → pro)</source>
        <translation>Angeben, für welchen Plan jeder Wert der Plan-Spalte steht („Pro Monthly“ → pro)</translation>
    </message>
    <message>
        <source>What column %1 is</source>
        <translation>Was Spalte %1 ist</translation>
    </message>
    <message>
        <source>(nothing else)</source>
        <translation>(nichts weiter)</translation>
    </message>
    <message>
        <source>What column %1 also is</source>
        <translation>Was Spalte %1 außerdem ist</translation>
    </message>
    <message numerus="yes">
        <source>%Ln plan value(s) mapped to plan ids.</source>
        <translation>
            <numerusform>%Ln Planwert einer Plan-ID zugeordnet.</numerusform>
            <numerusform>%Ln Planwerte Plan-IDs zugeordnet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportPreviewModel</name>
    <message>
        <source>not yet</source>
        <translation>noch nicht</translation>
    </message>
    <message>
        <source>done: %1</source>
        <translation>erledigt: %1</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>done earlier</source>
        <translation>früher erledigt</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>ausgelassen</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>Probelauf</translation>
    </message>
    <message>
        <source>What changes</source>
        <translation>Was sich ändert</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Review: %1. %2</source>
        <translation>Prüfen: %1. %2</translation>
    </message>
</context>
<context>
    <name>ImportPreviewPage</name>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>What the server would do, customer by customer. Nothing is written yet.</source>
        <translation>Was der Server tun würde, Kunde für Kunde. Noch wird nichts geschrieben.</translation>
    </message>
    <message>
        <source>&amp;Commit</source>
        <translation>Über&amp;nehmen</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>Ca&amp;ncel</source>
        <translation>Ab&amp;brechen</translation>
    </message>
    <message>
        <source>Dry run…</source>
        <translation>Probelauf …</translation>
    </message>
    <message>
        <source>&amp;Run again</source>
        <translation>&amp;Erneut ausführen</translation>
    </message>
    <message>
        <source>The dry run stopped: %1</source>
        <translation>Der Probelauf brach ab: %1</translation>
    </message>
    <message>
        <source>Cancelled: the customers not yet run show as pending. Run again to finish the dry run before committing.</source>
        <translation>Abgebrochen: Noch nicht geprüfte Kunden erscheinen als ausstehend. Führen Sie den Probelauf erneut aus, um ihn vor dem Übernehmen abzuschließen.</translation>
    </message>
    <message>
        <source>Dry run complete. Commit imports every customer without an error.</source>
        <translation>Probelauf abgeschlossen. „Übernehmen“ importiert jeden Kunden ohne Fehler.</translation>
    </message>
    <message>
        <source>All %1</source>
        <translation>Alle %1</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>Tarife</translation>
    </message>
    <message>
        <source>Balances (remaining of granted)</source>
        <translation>Guthaben (verbleibend von gewährt)</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Field, plan or feature</source>
        <translation>Feld, Tarif oder Funktion</translation>
    </message>
    <message numerus="yes">
        <source>Resuming: %n customer(s) the journal lists as imported are not sent again.</source>
        <translation>
            <numerusform>Fortsetzung: %n Kunde, den das Journal als importiert führt, wird nicht erneut gesendet.</numerusform>
            <numerusform>Fortsetzung: %n Kunden, die das Journal als importiert führt, werden nicht erneut gesendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Select a customer to see what changes: its fields, plans and balances before and after.</source>
        <translation>Wählen Sie einen Kunden, um zu sehen, was sich ändert: seine Felder, Tarife und Guthaben vorher und nachher.</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
</context>
<context>
    <name>ImportReportPage</name>
    <message>
        <source>Report</source>
        <translation>Bericht</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Not imported because</source>
        <translation>Nicht importiert, weil</translation>
    </message>
    <message>
        <source>E&amp;xport report as CSV…</source>
        <translation>Bericht als CSV e&amp;xportieren …</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Bericht exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>stopped before it was sent</source>
        <translation>vor dem Senden angehalten</translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) imported:</source>
        <translation>
            <numerusform>%n Kunde importiert:</numerusform>
            <numerusform>%n Kunden importiert:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>of which %n in an earlier run (from the journal)</source>
        <translation>
            <numerusform>davon %n in einem früheren Lauf (laut Journal)</numerusform>
            <numerusform>davon %n in einem früheren Lauf (laut Journal)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) not imported.</source>
        <translation>
            <numerusform>%n Kunde nicht importiert.</numerusform>
            <numerusform>%n Kunden nicht importiert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Journal: %1</source>
        <translation>Journal: %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>ImportRunner</name>
    <message>
        <source>the dry run failed: %1</source>
        <translation>der Probelauf schlug fehl: %1</translation>
    </message>
</context>
<context>
    <name>ImportSource</name>
    <message>
        <source>not a JSON object</source>
        <translation>kein JSON-Objekt</translation>
    </message>
    <message>
        <source>map a column to the customer id</source>
        <translation>ordnen Sie der Kunden-ID eine Spalte zu</translation>
    </message>
    <message>
        <source>not an email address</source>
        <translation>keine E-Mail-Adresse</translation>
    </message>
    <message>
        <source>a status needs a plan</source>
        <translation>ein Status braucht einen Tarif</translation>
    </message>
    <message>
        <source>not JSON: %1</source>
        <translation>kein JSON: %1</translation>
    </message>
    <message>
        <source>There is no file at %1.</source>
        <translation>Unter %1 gibt es keine Datei.</translation>
    </message>
    <message>
        <source>%1 is not a file.</source>
        <translation>%1 ist keine Datei.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>must be a number, 0 or more, with at most %1 decimal places</source>
        <translation>muss eine Zahl ab 0 mit höchstens %1 Nachkommastellen sein</translation>
    </message>
    <message>
        <source>the file is not a JSON array of %1</source>
        <translation>die Datei ist kein JSON-Array von %1</translation>
    </message>
    <message>
        <source>billing.import bodies</source>
        <translation>billing.import-Körpern</translation>
    </message>
</context>
<context>
    <name>ImportSourcePage</name>
    <message>
        <source>From a &amp;file:</source>
        <translation>Aus einer &amp;Datei:</translation>
    </message>
    <message>
        <source>&amp;Pasted:</source>
        <translation>&amp;Eingefügt:</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>customers.csv, .jsonl or .json</source>
        <translation>kunden.csv, .jsonl oder .json</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <source>Paste CSV or JSON Lines here</source>
        <translation>CSV oder JSON Lines hier einfügen</translation>
    </message>
    <message>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <source>JSON Lines</source>
        <translation>JSON Lines</translation>
    </message>
    <message>
        <source>JSON array</source>
        <translation>JSON-Array</translation>
    </message>
    <message>
        <source>Automatic (UTF-8, else Latin-1)</source>
        <translation>Automatisch (UTF-8, sonst Latin-1)</translation>
    </message>
    <message>
        <source>UTF-8</source>
        <translation>UTF-8</translation>
    </message>
    <message>
        <source>Latin-1</source>
        <translation>Latin-1</translation>
    </message>
    <message>
        <source>Comma ( , )</source>
        <translation>Komma ( , )</translation>
    </message>
    <message>
        <source>Semicolon ( ; )</source>
        <translation>Semikolon ( ; )</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>Tabulator</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>F&amp;ormat:</translation>
    </message>
    <message>
        <source>&amp;Encoding:</source>
        <translation>&amp;Kodierung:</translation>
    </message>
    <message>
        <source>&amp;Separator:</source>
        <translation>&amp;Trennzeichen:</translation>
    </message>
    <message>
        <source>Preview (the first %1 records):</source>
        <translation>Vorschau (die ersten %1 Datensätze):</translation>
    </message>
    <message>
        <source>Import customers from</source>
        <translation>Kunden importieren aus</translation>
    </message>
    <message>
        <source>Customer files (*.csv *.tsv *.txt *.jsonl *.ndjson *.json);;All files (*)</source>
        <translation>Kundendateien (*.csv *.tsv *.txt *.jsonl *.ndjson *.json);;Alle Dateien (*)</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) read.</source>
        <translation>
            <numerusform>%n Zeile gelesen.</numerusform>
            <numerusform>%n Zeilen gelesen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>An earlier commit of this source, started %1, stopped after %n customer(s).</source>
        <translation>
            <numerusform>Eine frühere Übernahme dieser Quelle, begonnen %1, hielt nach %n Kunden an.</numerusform>
            <numerusform>Eine frühere Übernahme dieser Quelle, begonnen %1, hielt nach %n Kunden an.</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Resume: skip the customers it committed</source>
        <translation>&amp;Fortsetzen: die dort übernommenen Kunden überspringen</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Lese …</translation>
    </message>
    <message>
        <source>An earlier commit of this source went to %1. A commit here begins a new journal and keeps that one as %2.</source>
        <translation>Eine frühere Übernahme dieser Quelle ging an %1. Eine Übernahme hier beginnt ein neues Journal und bewahrt jenes als %2 auf.</translation>
    </message>
    <message numerus="yes">
        <source>This source was imported into %1 on %2: %n customer(s).</source>
        <translation>
            <numerusform>Diese Quelle wurde am %2 nach %1 importiert: %n Kunde.</numerusform>
            <numerusform>Diese Quelle wurde am %2 nach %1 importiert: %n Kunden.</numerusform>
        </translation>
    </message>
    <message>
        <source>The source has changed since.</source>
        <translation>Die Quelle hat sich seitdem geändert.</translation>
    </message>
    <message>
        <source>&amp;Resume: send only the customers it did not import</source>
        <translation>&amp;Fortsetzen: nur die Kunden senden, die sie nicht importiert hat</translation>
    </message>
    <message>
        <source>Import it &amp;again as a new run: the preview shows what would change for each customer, and the journal is kept as %1</source>
        <translation>&amp;Erneut als neuen Lauf importieren: Die Vorschau zeigt, was sich je Kunde ändern würde, und das Journal bleibt als %1 erhalten</translation>
    </message>
    <message>
        <source>From S&amp;tripe:</source>
        <translation>Aus S&amp;tripe:</translation>
    </message>
    <message>
        <source>Customers as JSON Lines, a JSON array or CSV (see docs/import-formats.md), or from the organization&apos;s Stripe account.</source>
        <translation>Kunden als JSON Lines, JSON-Array oder CSV (siehe docs/import-formats.md), oder aus dem Stripe-Konto der Organisation.</translation>
    </message>
</context>
<context>
    <name>ImportValidationPage</name>
    <message>
        <source>Show &amp;only rows with problems</source>
        <translation>&amp;Nur Zeilen mit Problemen zeigen</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Prüfung</translation>
    </message>
    <message>
        <source>Every row is checked as the server would. Fix a cell in place (F2 or double-click), or untick a row to leave it out.</source>
        <translation>Jede Zeile wird geprüft wie vom Server. Korrigieren Sie eine Zelle direkt (F2 oder Doppelklick) oder entfernen Sie das Häkchen, um die Zeile auszulassen.</translation>
    </message>
    <message>
        <source>&amp;Exclude rows with problems</source>
        <translation>Zeilen mit Problemen &amp;auslassen</translation>
    </message>
    <message>
        <source>&amp;Include all</source>
        <translation>Alle &amp;einschließen</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s): </source>
        <translation>
            <numerusform>%n Zeile: </numerusform>
            <numerusform>%n Zeilen: </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n ready</source>
        <translation>
            <numerusform>%n bereit</numerusform>
            <numerusform>%n bereit</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with problems</source>
        <translation>
            <numerusform>%n mit Problemen</numerusform>
            <numerusform>%n mit Problemen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n left out</source>
        <translation>
            <numerusform>%n ausgelassen</numerusform>
            <numerusform>%n ausgelassen</numerusform>
        </translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n naming a plan this workspace does not have (the import would refuse them)</source>
        <translation>
            <numerusform>%n mit einem Plan, den dieser Arbeitsbereich nicht hat (der Import würde sie ablehnen)</numerusform>
            <numerusform>%n mit einem Plan, den dieser Arbeitsbereich nicht hat (der Import würde sie ablehnen)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ImportWizard</name>
    <message>
        <source>Import customers</source>
        <translation>Kunden importieren</translation>
    </message>
    <message>
        <source>The import is paused. Stop it after the customer in flight? Customers already committed stay; the journal lets you resume later.</source>
        <translation>Der Import ist angehalten. Nach dem laufenden Kunden beenden? Bereits übernommene Kunden bleiben; mit dem Journal können Sie später fortsetzen.</translation>
    </message>
    <message>
        <source>The dry run is paused. Stop it?</source>
        <translation>Der Probelauf ist angehalten. Beenden?</translation>
    </message>
</context>
<context>
    <name>KeyScopes</name>
    <message>
        <source>Needs the scope %1, which this connection&apos;s API key does not hold.</source>
        <translation>Braucht den Scope %1, den der API-Schlüssel dieser Verbindung nicht hat.</translation>
    </message>
    <message>
        <source>Needs one of the scopes %1, which this connection&apos;s API key does not hold.</source>
        <translation>Braucht einen der Scopes %1, die der API-Schlüssel dieser Verbindung nicht hat.</translation>
    </message>
</context>
<context>
    <name>KeysPage</name>
    <message>
        <source>&amp;New key…</source>
        <translation>&amp;Neuer Schlüssel…</translation>
    </message>
    <message>
        <source>R&amp;oll…</source>
        <translation>Geheimnis &amp;tauschen…</translation>
    </message>
    <message>
        <source>The keys of this organization&apos;s environment. A secret is shown once, when a key is made or rolled; here only its first characters.</source>
        <translation>Die Schlüssel der Umgebung dieser Organisation. Ein Geheimnis wird einmal gezeigt, wenn ein Schlüssel erstellt oder sein Geheimnis getauscht wird; hier nur seine ersten Zeichen.</translation>
    </message>
    <message>
        <source>The API keys could not be loaded: %1</source>
        <translation>Die API-Schlüssel konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>The secret of the new API key “%1”. Put it where the program that uses it keeps its secrets.</source>
        <translation>Das Geheimnis des neuen API-Schlüssels „%1“. Legen Sie es dort ab, wo das Programm, das ihn benutzt, seine Geheimnisse aufbewahrt.</translation>
    </message>
    <message>
        <source>API key “%1” made.</source>
        <translation>API-Schlüssel „%1“ erstellt.</translation>
    </message>
    <message>
        <source>Stop the old secret now (it leaked)</source>
        <translation>Altes Geheimnis sofort sperren (es ist bekannt geworden)</translation>
    </message>
    <message>
        <source>Keep it working for 1 hour</source>
        <translation>Noch 1 Stunde gelten lassen</translation>
    </message>
    <message>
        <source>Keep it working for 1 day</source>
        <translation>Noch 1 Tag gelten lassen</translation>
    </message>
    <message>
        <source>Keep it working for 7 days</source>
        <translation>Noch 7 Tage gelten lassen</translation>
    </message>
    <message>
        <source>Roll API key</source>
        <translation>Geheimnis des API-Schlüssels tauschen</translation>
    </message>
    <message>
        <source>Give “%1” (%2) a new secret. Its programs need the new one; how long may the old one keep working?</source>
        <translation>„%1“ (%2) ein neues Geheimnis geben. Seine Programme brauchen das neue; wie lange darf das alte noch gelten?</translation>
    </message>
    <message>
        <source>&amp;Roll</source>
        <translation>&amp;Tauschen</translation>
    </message>
    <message>
        <source>Key not rolled</source>
        <translation>Geheimnis nicht getauscht</translation>
    </message>
    <message>
        <source>The new secret of “%1”. The old one keeps working until %2.</source>
        <translation>Das neue Geheimnis von „%1“. Das alte gilt noch bis %2.</translation>
    </message>
    <message>
        <source>The new secret of “%1”. The old one no longer works.</source>
        <translation>Das neue Geheimnis von „%1“. Das alte gilt nicht mehr.</translation>
    </message>
    <message>
        <source>Revoke API key</source>
        <translation>API-Schlüssel widerrufen</translation>
    </message>
    <message>
        <source>Revoke “%1” (%2)? Every program using it is refused within a second. This cannot be undone.</source>
        <translation>„%1“ (%2) widerrufen? Jedes Programm, das ihn benutzt, wird binnen einer Sekunde abgewiesen. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>&amp;Revoke</source>
        <translation>&amp;Widerrufen</translation>
    </message>
    <message>
        <source>API key “%1” revoked.</source>
        <translation>API-Schlüssel „%1“ widerrufen.</translation>
    </message>
    <message>
        <source>“%1” was not revoked: %2</source>
        <translation>„%1“ wurde nicht widerrufen: %2</translation>
    </message>
    <message>
        <source>API key secret</source>
        <translation>Geheimnis des API-Schlüssels</translation>
    </message>
    <message>
        <source>&amp;Revoke…</source>
        <translation>Wider&amp;rufen…</translation>
    </message>
    <message>
        <source>API &amp;keys</source>
        <translation>&amp;API-Schlüssel</translation>
    </message>
    <message>
        <source>“%1” (%2) is the key this console is connected with. Revoking it disconnects this console within a second, and you will need another key to connect again. Every other program using it is refused too. This cannot be undone.</source>
        <translation>„%1“ (%2) ist der Schlüssel, mit dem diese Konsole verbunden ist. Wird er widerrufen, ist diese Konsole binnen einer Sekunde getrennt, und Sie brauchen einen anderen Schlüssel, um sich wieder zu verbinden. Jedes andere Programm, das ihn nutzt, wird ebenfalls abgewiesen. Das lässt sich nicht rückgängig machen.</translation>
    </message>
</context>
<context>
    <name>LedgerModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Betrag</translation>
    </message>
    <message>
        <source>Holds after</source>
        <translation>Stand danach</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Verbraucht</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>Grant</source>
        <translation>Gewährung</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzung</translation>
    </message>
    <message>
        <source>Rollover</source>
        <translation>Übertrag</translation>
    </message>
    <message>
        <source>Expiry</source>
        <translation>Ablauf</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>Importiert</translation>
    </message>
    <message>
        <source>Adjustment</source>
        <translation>Berichtigung</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1 (key %2)</source>
        <translation>%1 (Schlüssel %2)</translation>
    </message>
    <message>
        <source>%1 (console)</source>
        <translation>%1 (Konsole)</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Eintrag</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>Route</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
</context>
<context>
    <name>LinkAccountDialog</name>
    <message>
        <source>&amp;Link</source>
        <translation>&amp;Verknüpfen</translation>
    </message>
    <message>
        <source>Link processor account</source>
        <translation>Zahlungskonto verknüpfen</translation>
    </message>
    <message>
        <source>acct_… (test environment)</source>
        <translation>acct_… (Testumgebung)</translation>
    </message>
    <message>
        <source>acct_… (live environment)</source>
        <translation>acct_… (Live-Umgebung)</translation>
    </message>
    <message>
        <source>&amp;Tenant organization:</source>
        <translation>&amp;Mandanten-Organisation:</translation>
    </message>
    <message>
        <source>&amp;Test Stripe account:</source>
        <translation>&amp;Test-Stripe-Konto:</translation>
    </message>
    <message>
        <source>Li&amp;ve Stripe account:</source>
        <translation>Li&amp;ve-Stripe-Konto:</translation>
    </message>
    <message>
        <source>The platform&apos;s own Stripe keys are used with the tenant&apos;s account ids. Give at least one.</source>
        <translation>Die Stripe-Schlüssel der Plattform werden mit den Konto-IDs des Mandanten verwendet. Geben Sie mindestens eine an.</translation>
    </message>
    <message>
        <source>Choose the tenant organization.</source>
        <translation>Wählen Sie die Mandanten-Organisation.</translation>
    </message>
    <message>
        <source>Give a test or a live account id, or both.</source>
        <translation>Geben Sie eine Test- oder Live-Konto-ID an, oder beide.</translation>
    </message>
    <message>
        <source>Not linked: %1</source>
        <translation>Nicht verknüpft: %1</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Meterdesk</source>
        <translation>Meterdesk</translation>
    </message>
    <message>
        <source>Balances</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
    <message>
        <source>Products</source>
        <translation>Produkte</translation>
    </message>
    <message>
        <source>Rewards</source>
        <translation>Prämien</translation>
    </message>
    <message>
        <source>Tenants</source>
        <translation>Mandanten</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>&amp;Verbinden …</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>&amp;Gehe zu</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Copy rows</source>
        <translation>Zeilen &amp;kopieren</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen …</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Werkzeuge</translation>
    </message>
    <message>
        <source>Command &amp;palette…</source>
        <translation>Befehls&amp;palette …</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>An&amp;sicht</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Opening the workspace…</source>
        <translation>Öffne den Arbeitsbereich …</translation>
    </message>
    <message>
        <source>%1 (Ctrl+%2)</source>
        <translation>%1 (Strg+%2)</translation>
    </message>
    <message>
        <source>Meterdesk: %1 (%2)</source>
        <translation>Meterdesk: %1 (%2)</translation>
    </message>
    <message>
        <source> LIVE </source>
        <translation> LIVE </translation>
    </message>
    <message>
        <source> TEST </source>
        <translation> TEST </translation>
    </message>
    <message>
        <source>org %1 (%2)</source>
        <translation>Org. %1 (%2)</translation>
    </message>
    <message>
        <source>Not connected: %1</source>
        <translation>Nicht verbunden: %1</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen …</translation>
    </message>
    <message>
        <source>As the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>English</source>
        <translation>English</translation>
    </message>
    <message>
        <source>Deutsch</source>
        <translation>Deutsch</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Language (used from the next start):</source>
        <translation>Sprache (gilt ab dem nächsten Start):</translation>
    </message>
    <message>
        <source>Load price &amp;catalogue…</source>
        <translation>Preis&amp;katalog laden …</translation>
    </message>
    <message>
        <source>P&amp;rice a call…</source>
        <translation>Aufruf be&amp;preisen …</translation>
    </message>
    <message>
        <source>Price calls with a newer models.dev catalogue file</source>
        <translation>Aufrufe mit einer neueren models.dev-Katalogdatei bepreisen</translation>
    </message>
    <message>
        <source>The server prices calls with its own catalogue</source>
        <translation>Der Server bepreist Aufrufe mit seinem eigenen Katalog</translation>
    </message>
    <message>
        <source>&amp;Import customers…</source>
        <translation>Kunden &amp;importieren …</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Meterdesk…</source>
        <translation>Über &amp;Meterdesk …</translation>
    </message>
    <message>
        <source>About &amp;Qt…</source>
        <translation>Über &amp;Qt …</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <source>The user guide is not installed on this computer. Meterdesk&apos;s package puts it in /usr/share/doc/meterdesk/user-guide.md; in the source it is docs/user-guide.md.</source>
        <translation>Das Benutzerhandbuch ist auf diesem Computer nicht installiert. Das Paket von Meterdesk legt es unter /usr/share/doc/meterdesk/user-guide.md ab; im Quellcode ist es docs/user-guide.md.</translation>
    </message>
    <message>
        <source>No program here opens %1. Open it with a text editor or a Markdown viewer.</source>
        <translation>Kein Programm hier öffnet %1. Öffnen Sie die Datei mit einem Texteditor oder einem Markdown-Betrachter.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln failed event(s)&lt;/a&gt;</source>
        <translation>
            <numerusform>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln gescheiterter Aufruf&lt;/a&gt;</numerusform>
            <numerusform>&lt;a href=&quot;failed&quot; style=&quot;color:#c62828&quot;&gt;%Ln gescheiterte Aufrufe&lt;/a&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>Calls accepted with the async flag that could not be applied: see Usage</source>
        <translation>Asynchron angenommene Aufrufe, die nicht angewendet werden konnten: siehe Nutzung</translation>
    </message>
    <message>
        <source>Your saved views could not be restored: %1</source>
        <translation>Ihre gespeicherten Ansichten konnten nicht wiederhergestellt werden: %1</translation>
    </message>
    <message>
        <source>The track queue could not be read: %1</source>
        <translation>Die Warteschlange der Aufrufe konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>● %1</source>
        <translation>● %1</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>Prüfprotokoll</translation>
    </message>
    <message>
        <source>&amp;Print balances…</source>
        <translation>Guthaben &amp;drucken …</translation>
    </message>
    <message>
        <source>Pro&amp;mote sandbox to production…</source>
        <translation>Sandbox in die Produktion über&amp;nehmen …</translation>
    </message>
    <message>
        <source>Sandbox &amp;clock…</source>
        <translation>Sandbox-&amp;Uhr…</translation>
    </message>
    <message>
        <source>Sandbox clock moved to %1: %2</source>
        <translation>Sandbox-Uhr auf %1 gestellt: %2</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooks</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source> READ ONLY </source>
        <translation> NUR LESEN </translation>
    </message>
    <message>
        <source>This connection&apos;s API key holds %1: what needs more is switched off.</source>
        <translation>Der API-Schlüssel dieser Verbindung hat %1: Was mehr braucht, ist abgeschaltet.</translation>
    </message>
    <message>
        <source>Import &amp;usage…</source>
        <translation>&amp;Nutzung importieren …</translation>
    </message>
    <message>
        <source>Revenue</source>
        <translation>Umsatz</translation>
    </message>
</context>
<context>
    <name>PagedExport</name>
    <message>
        <source>An export is already running.</source>
        <translation>Es läuft bereits ein Export.</translation>
    </message>
    <message>
        <source>%1
No file was written.</source>
        <translation>%1
Es wurde keine Datei geschrieben.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>PlanValuesDialog</name>
    <message>
        <source>Plan values</source>
        <translation>Planwerte</translation>
    </message>
    <message>
        <source>Say which plan each value of the plan column stands for. A value left empty is taken as the plan&apos;s id.</source>
        <translation>Geben Sie an, für welchen Plan jeder Wert der Plan-Spalte steht. Ein leer gelassener Wert gilt als die ID des Plans.</translation>
    </message>
    <message>
        <source>Value in the file</source>
        <translation>Wert in der Datei</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <source>Plan for %1</source>
        <translation>Plan für %1</translation>
    </message>
</context>
<context>
    <name>PriceCallDialog</name>
    <message>
        <source>Price a call</source>
        <translation>Aufruf bepreisen</translation>
    </message>
    <message>
        <source>none: the catalogue price without markup</source>
        <translation>keiner: Katalogpreis ohne Aufschlag</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>C&amp;ustomer:</source>
        <translation>K&amp;unde:</translation>
    </message>
    <message>
        <source>Input tokens:</source>
        <translation>Eingabe-Token:</translation>
    </message>
    <message>
        <source>Output tokens:</source>
        <translation>Ausgabe-Token:</translation>
    </message>
    <message>
        <source>Cache read tokens:</source>
        <translation>Cache-Lese-Token:</translation>
    </message>
    <message>
        <source>Cache write tokens:</source>
        <translation>Cache-Schreib-Token:</translation>
    </message>
    <message>
        <source>Reasoning tokens:</source>
        <translation>Reasoning-Token:</translation>
    </message>
    <message>
        <source>Audio input tokens:</source>
        <translation>Audio-Eingabe-Token:</translation>
    </message>
    <message>
        <source>Audio output tokens:</source>
        <translation>Audio-Ausgabe-Token:</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>Pool</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>$ per million</source>
        <translation>$ je Million</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Tracks this call against the customer&apos;s AI credits</source>
        <translation>Erfasst diesen Aufruf gegen die KI-Guthaben des Kunden</translation>
    </message>
    <message>
        <source>The model catalogue could not be read: %1</source>
        <translation>Der Modellkatalog konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Pick a model: provider/model, as the catalogue lists it.</source>
        <translation>Wählen Sie ein Modell: Anbieter/Modell, wie der Katalog es führt.</translation>
    </message>
    <message>
        <source>set for this model</source>
        <translation>für dieses Modell festgelegt</translation>
    </message>
    <message>
        <source>set for this provider</source>
        <translation>für diesen Anbieter festgelegt</translation>
    </message>
    <message>
        <source>the credit system&apos;s default</source>
        <translation>Standard des Guthabensystems</translation>
    </message>
    <message>
        <source>no markup set</source>
        <translation>kein Aufschlag festgelegt</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> von %1</translation>
    </message>
    <message>
        <source>Base cost %1; markup %2 % (%3%4). &lt;b&gt;%5&lt;/b&gt;</source>
        <translation>Grundkosten %1; Aufschlag %2 % (%3%4). &lt;b&gt;%5&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Free: the call is recorded and nothing is deducted.</source>
        <translation>Kostenlos: Der Aufruf wird erfasst, nichts wird abgebucht.</translation>
    </message>
    <message>
        <source>Charged: %1</source>
        <translation>Berechnet: %1</translation>
    </message>
    <message>
        <source>Record this call?</source>
        <translation>Diesen Aufruf erfassen?</translation>
    </message>
    <message>
        <source>Deduct %1 from the AI credits of %2? This is a real usage event and cannot be undone here.</source>
        <translation>%1 von den KI-Guthaben von %2 abbuchen? Das ist ein echtes Verbrauchsereignis und kann hier nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Not recorded: %1</source>
        <translation>Nicht erfasst: %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Recorded for %1: %2 deducted, %3 left.</source>
        <translation>Erfasst für %1: %2 abgebucht, %3 übrig.</translation>
    </message>
    <message>
        <source>&amp;Record for customer…</source>
        <translation>Für Kunden &amp;erfassen …</translation>
    </message>
</context>
<context>
    <name>ProcessorKeyDialog</name>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation>&amp;Trennen</translation>
    </message>
    <message>
        <source>Stripe key</source>
        <translation>Stripe-Schlüssel</translation>
    </message>
    <message>
        <source>sk_test_… or rk_test_… (this connection&apos;s environment)</source>
        <translation>sk_test_… oder rk_test_… (die Umgebung dieser Verbindung)</translation>
    </message>
    <message>
        <source>New &amp;secret key:</source>
        <translation>Neuer &amp;geheimer Schlüssel:</translation>
    </message>
    <message>
        <source>The organization&apos;s Stripe secret key lets Meterdesk read Stripe: the imports linked to subscriptions, the check against Stripe, and a platform&apos;s links. It is stored sealed on the server; only its last four characters are shown. Meterdesk never writes to Stripe, so a restricted key that reads accounts, customers and subscriptions is enough.</source>
        <translation>Mit dem geheimen Stripe-Schlüssel der Organisation liest Meterdesk Stripe: mit Abonnements verknüpfte Importe, den Abgleich mit Stripe und die Verknüpfungen einer Plattform. Er wird versiegelt auf dem Server gespeichert; nur seine letzten vier Zeichen werden gezeigt. Meterdesk schreibt nie in Stripe, daher genügt ein eingeschränkter Schlüssel, der Konten, Kunden und Abonnements liest.</translation>
    </message>
</context>
<context>
    <name>ProcessorKeyEdit</name>
    <message>
        <source>Asking Stripe whether the key works…</source>
        <translation>Stripe wird gefragt, ob der Schlüssel funktioniert…</translation>
    </message>
    <message>
        <source>Connected %1.</source>
        <translation>%1 verbunden.</translation>
    </message>
    <message>
        <source>Disconnected.</source>
        <translation>Getrennt.</translation>
    </message>
    <message>
        <source>%1: %2, connected %3</source>
        <translation>%1: %2, verbunden am %3</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>No Stripe key is connected.</source>
        <translation>Kein Stripe-Schlüssel ist verbunden.</translation>
    </message>
</context>
<context>
    <name>ProductDialog</name>
    <message>
        <source>Can be bought &amp;alongside other products</source>
        <translation>Kann &amp;zusätzlich zu anderen Produkten gekauft werden</translation>
    </message>
    <message>
        <source>&amp;Default product</source>
        <translation>&amp;Standardprodukt</translation>
    </message>
    <message>
        <source>A&amp;rchived</source>
        <translation>A&amp;rchiviert</translation>
    </message>
    <message>
        <source>&amp;Free trial</source>
        <translation>&amp;Kostenlose Testphase</translation>
    </message>
    <message>
        <source>Once per device &amp;fingerprint</source>
        <translation>Einmal je Geräte&amp;fingerabdruck</translation>
    </message>
    <message>
        <source>Edit product %1</source>
        <translation>Produkt %1 bearbeiten</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Changing the items of a version customers are on adds a new version; their history stays as it was.</source>
        <translation>Wer die Positionen einer Version ändert, auf der Kunden sind, legt eine neue Version an; deren Verlauf bleibt, wie er war.</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Included</source>
        <translation>Inklusive</translation>
    </message>
    <message>
        <source>Interval</source>
        <translation>Intervall</translation>
    </message>
    <message>
        <source>Usage model</source>
        <translation>Verbrauchsmodell</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>Billing units</source>
        <translation>Abrechnungseinheiten</translation>
    </message>
    <message>
        <source>Tiers (up to:amount; …)</source>
        <translation>Staffeln (bis:Betrag; …)</translation>
    </message>
    <message>
        <source>Reset when enabled</source>
        <translation>Beim Aktivieren zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Add item</source>
        <translation>Position &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move item</source>
        <translation>Position &amp;entfernen</translation>
    </message>
    <message>
        <source>&amp;Id:</source>
        <translation>&amp;ID:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation>&amp;Gruppe:</translation>
    </message>
    <message>
        <source>V&amp;ersion:</source>
        <translation>V&amp;ersion:</translation>
    </message>
    <message>
        <source>Items:</source>
        <translation>Positionen:</translation>
    </message>
    <message>
        <source>one-off</source>
        <translation>einmalig</translation>
    </message>
    <message>
        <source>(from the feature)</source>
        <translation>(von der Funktion)</translation>
    </message>
    <message>
        <source>The features could not be loaded, so items are not checked against them: %1</source>
        <translation>Die Funktionen konnten nicht geladen werden, daher werden die Posten nicht mit ihnen abgeglichen: %1</translation>
    </message>
    <message>
        <source>Item %1: there is no feature &quot;%2&quot;</source>
        <translation>Position %1: es gibt keine Funktion „%2“</translation>
    </message>
    <message>
        <source>Every</source>
        <translation>Alle</translation>
    </message>
    <message>
        <source>Resets every this many intervals (empty: every one)</source>
        <translation>Wird nach so vielen Intervallen zurückgesetzt (leer: nach jedem)</translation>
    </message>
    <message>
        <source>Rollover</source>
        <translation>Übertrag</translation>
    </message>
    <message>
        <source>What a reset carries over, as max/length interval: 500/2 month keeps what is unused, at most 500 in all, for two months; all/1 month keeps everything for a month; empty: nothing carries over</source>
        <translation>Was eine Zurücksetzung überträgt, als Höchstwert/Dauer Intervall: 500/2 month behält Ungenutztes, insgesamt höchstens 500, zwei Monate lang; all/1 month behält alles einen Monat lang; leer: nichts wird übertragen</translation>
    </message>
    <message>
        <source>Asking the server what Save will store…</source>
        <translation>Der Server wird gefragt, was Speichern ablegen wird …</translation>
    </message>
    <message>
        <source>Save would be refused: %1</source>
        <translation>Speichern würde abgelehnt: %1</translation>
    </message>
</context>
<context>
    <name>ProductEdit</name>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 × %2%3</source>
        <translation>%1 × %2%3</translation>
    </message>
    <message>
        <source>, once per fingerprint</source>
        <translation>, einmal je Fingerabdruck</translation>
    </message>
    <message>
        <source>give the product a name</source>
        <translation>geben Sie dem Produkt einen Namen</translation>
    </message>
    <message>
        <source>an id has no spaces or slashes</source>
        <translation>eine ID enthält keine Leerzeichen oder Schrägstriche</translation>
    </message>
    <message>
        <source>%1 included</source>
        <translation>%1 inklusive</translation>
    </message>
    <message>
        <source>one-off</source>
        <translation>einmalig</translation>
    </message>
    <message>
        <source>%1 per %2</source>
        <translation>%1 je %2</translation>
    </message>
    <message>
        <source>tiers %1</source>
        <translation>Staffeln %1</translation>
    </message>
    <message>
        <source>resets when enabled</source>
        <translation>wird beim Aktivieren zurückgesetzt</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Add-on</source>
        <translation>Zusatz</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Archiviert</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Item %1</source>
        <translation>Position %1</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>Free trial</source>
        <translation>Testphase</translation>
    </message>
    <message>
        <source>write up-to:amount pairs separated by &quot;;&quot;, the last up to inf (1000:0.5; inf:0.25), a flat amount after + (inf:0.25+10)</source>
        <translation>schreiben Sie Bis:Betrag-Paare, getrennt durch „;“, das letzte bis inf (1000:0.5; inf:0.25), einen Pauschalbetrag nach + (inf:0.25+10)</translation>
    </message>
    <message>
        <source>write max/length interval: 500/2 month keeps at most 500 for two months, all/1 month keeps everything for a month</source>
        <translation>schreiben Sie Höchstwert/Dauer Intervall: 500/2 month behält höchstens 500 zwei Monate lang, all/1 month behält alles einen Monat lang</translation>
    </message>
    <message>
        <source>every %1</source>
        <translation>alle %1</translation>
    </message>
    <message>
        <source>rolls over %1</source>
        <translation>Übertrag %1</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>nicht gesetzt</translation>
    </message>
    <message>
        <source>from the feature</source>
        <translation>vom Merkmal</translation>
    </message>
    <message>
        <source>feature type</source>
        <translation>Merkmalstyp</translation>
    </message>
    <message>
        <source>included usage</source>
        <translation>enthaltener Verbrauch</translation>
    </message>
    <message>
        <source>interval</source>
        <translation>Intervall</translation>
    </message>
    <message>
        <source>every</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>rollover</source>
        <translation>Übertrag</translation>
    </message>
    <message>
        <source>usage model</source>
        <translation>Verbrauchsmodell</translation>
    </message>
    <message>
        <source>price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>billing units</source>
        <translation>Abrechnungseinheiten</translation>
    </message>
    <message>
        <source>tiers</source>
        <translation>Staffeln</translation>
    </message>
    <message>
        <source>entity feature</source>
        <translation>Entitätsmerkmal</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Order of items</source>
        <translation>Reihenfolge der Positionen</translation>
    </message>
    <message>
        <source>Customers are on version %1 of %2, so Save makes version %3 with these items; version %1 stays as it is for them.</source>
        <translation>Kunden sind auf Version %1 von %2, daher legt Speichern Version %3 mit diesen Positionen an; Version %1 bleibt für sie, wie sie ist.</translation>
    </message>
    <message>
        <source>No customer is on version %1 of %2, so Save changes its items in place.</source>
        <translation>Kein Kunde ist auf Version %1 von %2, daher ändert Speichern ihre Positionen direkt.</translation>
    </message>
    <message>
        <source>fixed price</source>
        <translation>Festpreis</translation>
    </message>
    <message>
        <source>%1 × quantity</source>
        <translation>%1 × Menge</translation>
    </message>
</context>
<context>
    <name>ProductListModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Add-on</source>
        <translation>Zusatz</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>Archived</source>
        <translation>Archiviert</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>The last save of %1 changed nothing that Undo can write back.</source>
        <translation>Das letzte Speichern von %1 hat nichts geändert, was Rückgängig zurückschreiben kann.</translation>
    </message>
    <message>
        <source>saving made version %1 of %2 beside version %3, which customers are on, and a version cannot be taken away. Edit %2 to change version %1.</source>
        <translation>Speichern hat Version %1 von %2 neben Version %3 angelegt, auf der Kunden sind, und eine Version lässt sich nicht entfernen. Bearbeiten Sie %2, um Version %1 zu ändern.</translation>
    </message>
</context>
<context>
    <name>ProductsPage</name>
    <message>
        <source>Products could not be read: %1</source>
        <translation>Produkte konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Saved %1 (version %2).</source>
        <translation>%1 gespeichert (Version %2).</translation>
    </message>
    <message>
        <source>&amp;Promote to production…</source>
        <translation>In die &amp;Produktion übernehmen …</translation>
    </message>
    <message numerus="yes">
        <source>Promoted %n change(s) to production.</source>
        <translation>
            <numerusform>%n Änderung in die Produktion übernommen.</numerusform>
            <numerusform>%n Änderungen in die Produktion übernommen.</numerusform>
        </translation>
    </message>
    <message>
        <source>The last change was a promotion to production. Undoing it puts production&apos;s products back as they were before it, at once, for every customer on a live key. Undo the promotion?</source>
        <translation>Die letzte Änderung war eine Übernahme in die Produktion. Rückgängig gemacht, sind die Produkte der Produktion sofort wieder wie davor, für jeden Kunden mit einem Live-Schlüssel. Übernahme rückgängig machen?</translation>
    </message>
</context>
<context>
    <name>PromotionDialog</name>
    <message>
        <source>Promote sandbox to production</source>
        <translation>Sandbox in die Produktion übernehmen</translation>
    </message>
    <message>
        <source>The entry&apos;s fields that differ:</source>
        <translation>Die abweichenden Felder des Eintrags:</translation>
    </message>
    <message>
        <source>Production</source>
        <translation>Produktion</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>Production takes these values from the sandbox:</source>
        <translation>Die Produktion übernimmt diese Werte aus der Sandbox:</translation>
    </message>
    <message>
        <source>Production now</source>
        <translation>Produktion jetzt</translation>
    </message>
    <message>
        <source>Production after</source>
        <translation>Produktion danach</translation>
    </message>
    <message>
        <source>Reading both environments…</source>
        <translation>Beide Umgebungen werden gelesen …</translation>
    </message>
    <message>
        <source>Choose &amp;all</source>
        <translation>&amp;Alle wählen</translation>
    </message>
    <message>
        <source>Choose &amp;none</source>
        <translation>&amp;Keine wählen</translation>
    </message>
    <message>
        <source>Compare a&amp;gain</source>
        <translation>Erneut &amp;vergleichen</translation>
    </message>
    <message>
        <source>Products and rewards whose sandbox and production differ. Choose what production takes over from the sandbox; Undo last change on the Products page puts it back.</source>
        <translation>Produkte und Prämien, die sich zwischen Sandbox und Produktion unterscheiden. Wählen Sie, was die Produktion aus der Sandbox übernimmt; „Letzte Änderung rückgängig“ auf der Seite Produkte macht es rückgängig.</translation>
    </message>
    <message>
        <source>Re&amp;view promotion…</source>
        <translation>Übernahme &amp;prüfen …</translation>
    </message>
    <message>
        <source>&amp;Promote</source>
        <translation>Über&amp;nehmen</translation>
    </message>
    <message>
        <source>Sandbox and production are the same: nothing to promote.</source>
        <translation>Sandbox und Produktion sind gleich: Es gibt nichts zu übernehmen.</translation>
    </message>
    <message numerus="yes">
        <source>%n difference(s).</source>
        <translation>
            <numerusform>%n Unterschied.</numerusform>
            <numerusform>%n Unterschiede.</numerusform>
        </translation>
    </message>
    <message>
        <source>The environments could not be compared: %1</source>
        <translation>Die Umgebungen konnten nicht verglichen werden: %1</translation>
    </message>
    <message>
        <source>Choose at least one difference to promote (Space ticks the row).</source>
        <translation>Wählen Sie mindestens einen Unterschied zum Übernehmen (die Leertaste hakt die Zeile an).</translation>
    </message>
    <message>
        <source>%1. The differences are read again: go back, look at them and choose again.</source>
        <translation>%1. Die Unterschiede werden neu gelesen: Gehen Sie zurück, sehen Sie sie an und wählen Sie erneut.</translation>
    </message>
</context>
<context>
    <name>PromotionModel</name>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>product %1</source>
        <translation>Produkt %1</translation>
    </message>
    <message>
        <source>reward %1</source>
        <translation>Prämie %1</translation>
    </message>
    <message>
        <source>There is no promotion to undo.</source>
        <translation>Es gibt keine Übernahme, die rückgängig gemacht werden kann.</translation>
    </message>
    <message numerus="yes">
        <source>production (%n promoted change(s))</source>
        <translation>
            <numerusform>Produktion (%n übernommene Änderung)</numerusform>
            <numerusform>Produktion (%n übernommene Änderungen)</numerusform>
        </translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Prämie</translation>
    </message>
    <message>
        <source>only in sandbox</source>
        <translation>nur in der Sandbox</translation>
    </message>
    <message>
        <source>only in production</source>
        <translation>nur in der Produktion</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>Unterschied</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>Felder</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Enter the URL the events are sent to.</source>
        <translation>Geben Sie die URL ein, an die die Ereignisse gesendet werden.</translation>
    </message>
    <message>
        <source>The URL must start with https:// and name a host.</source>
        <translation>Die URL muss mit https:// beginnen und einen Host nennen.</translation>
    </message>
    <message>
        <source>Choose at least one event, or all events.</source>
        <translation>Wählen Sie mindestens ein Ereignis oder alle Ereignisse.</translation>
    </message>
    <message>
        <source>The description is longer than %1 characters.</source>
        <translation>Die Beschreibung ist länger als %1 Zeichen.</translation>
    </message>
    <message>
        <source>Enter a name that says what the key is for.</source>
        <translation>Geben Sie einen Namen ein, der sagt, wofür der Schlüssel ist.</translation>
    </message>
    <message>
        <source>The name is longer than %1 characters.</source>
        <translation>Der Name ist länger als %1 Zeichen.</translation>
    </message>
    <message>
        <source>Choose at least one scope.</source>
        <translation>Wählen Sie mindestens einen Scope.</translation>
    </message>
    <message>
        <source>The expiry is not in the future.</source>
        <translation>Der Ablauf liegt nicht in der Zukunft.</translation>
    </message>
</context>
<context>
    <name>ResetOutlook</name>
    <message>
        <source>usage back to 0</source>
        <translation>Verbrauch wieder auf 0</translation>
    </message>
    <message>
        <source>%1 back, usage back to 0</source>
        <translation>%1 wieder verfügbar, Verbrauch wieder auf 0</translation>
    </message>
    <message>
        <source>; the overage of %1 is forgiven</source>
        <translation>; die Überschreitung von %1 wird erlassen</translation>
    </message>
    <message>
        <source>nothing unused now; what is left at the reset is kept for %1</source>
        <translation>derzeit nichts ungenutzt; was bei der Zurücksetzung übrig ist, bleibt %1 erhalten</translation>
    </message>
    <message>
        <source>%1 unused now carries over, kept until %2 (%3)</source>
        <translation>%1 derzeit ungenutzt wird übertragen, erhalten bis %2 (%3)</translation>
    </message>
    <message>
        <source>; at most %1 held, the soonest to expire giving way first</source>
        <translation>; höchstens %1 insgesamt, der am frühesten ablaufende Übertrag weicht zuerst</translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation>
            <numerusform>%n Minute</numerusform>
            <numerusform>%n Minuten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hour(s)</source>
        <translation>
            <numerusform>%n Stunde</numerusform>
            <numerusform>%n Stunden</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s)</source>
        <translation>
            <numerusform>%n Tag</numerusform>
            <numerusform>%n Tage</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n week(s)</source>
        <translation>
            <numerusform>%n Woche</numerusform>
            <numerusform>%n Wochen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n month(s)</source>
        <translation>
            <numerusform>%n Monat</numerusform>
            <numerusform>%n Monate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n quarter(s)</source>
        <translation>
            <numerusform>%n Quartal</numerusform>
            <numerusform>%n Quartale</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n half-year(s)</source>
        <translation>
            <numerusform>%n Halbjahr</numerusform>
            <numerusform>%n Halbjahre</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n year(s)</source>
        <translation>
            <numerusform>%n Jahr</numerusform>
            <numerusform>%n Jahre</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RevenuePage</name>
    <message>
        <source>Export &amp;workbook…</source>
        <translation>Arbeitsmappe e&amp;xportieren …</translation>
    </message>
    <message>
        <source>By product</source>
        <translation>Nach Produkt</translation>
    </message>
    <message>
        <source>By feature</source>
        <translation>Nach Funktion</translation>
    </message>
    <message>
        <source>By customer (top 100)</source>
        <translation>Nach Kunde (die 100 größten)</translation>
    </message>
    <message>
        <source>&amp;Month:</source>
        <translation>&amp;Monat:</translation>
    </message>
    <message>
        <source>%1 (so far)</source>
        <translation>%1 (bisher)</translation>
    </message>
    <message>
        <source>Revenue could not be read: %1</source>
        <translation>Der Umsatz konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1 in %2: %3 %4</source>
        <translation>%1 im %2: %3 %4</translation>
    </message>
    <message>
        <source>Export revenue</source>
        <translation>Umsatz exportieren</translation>
    </message>
    <message>
        <source>Excel workbook (*.xlsx)</source>
        <translation>Excel-Arbeitsmappe (*.xlsx)</translation>
    </message>
    <message>
        <source>Reading revenue…</source>
        <translation>Lese den Umsatz …</translation>
    </message>
    <message>
        <source>Billed by month, by product (%1: so far)</source>
        <translation>Abgerechnet nach Monat und Produkt (%1: bisher)</translation>
    </message>
    <message>
        <source>(open periods as of %1)</source>
        <translation>(offene Zeiträume, Stand %1)</translation>
    </message>
</context>
<context>
    <name>RevenueTableModel</name>
    <message>
        <source>(none)</source>
        <translation>(keins)</translation>
    </message>
    <message>
        <source>(all other customers)</source>
        <translation>(alle übrigen Kunden)</translation>
    </message>
    <message>
        <source>Prepaid</source>
        <translation>Vorausbezahlt</translation>
    </message>
    <message>
        <source>Credits</source>
        <translation>Guthabenpakete</translation>
    </message>
    <message>
        <source>Revenue</source>
        <translation>Umsatz</translation>
    </message>
    <message>
        <source>Total (%1)</source>
        <translation>Summe (%1)</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Fixed prices</source>
        <translation>Festpreise</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Summe</translation>
    </message>
</context>
<context>
    <name>RewardDialog</name>
    <message>
        <source>Code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Redemptions</source>
        <translation>Einlösungen</translation>
    </message>
    <message>
        <source>First purchase only</source>
        <translation>Nur beim ersten Kauf</translation>
    </message>
    <message>
        <source>Max uses</source>
        <translation>Höchstens nutzbar</translation>
    </message>
    <message>
        <source>Edit reward %1</source>
        <translation>Prämie %1 bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>plan ids, separated by commas</source>
        <translation>Tarif-IDs, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>&amp;Plans:</source>
        <translation>&amp;Tarife:</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Menge</translation>
    </message>
    <message>
        <source>Expires every</source>
        <translation>Läuft ab nach</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Länge</translation>
    </message>
    <message>
        <source>Grants:</source>
        <translation>Gutschriften:</translation>
    </message>
    <message>
        <source>Add &amp;grant</source>
        <translation>Gutschrift &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Remove g&amp;rant</source>
        <translation>Gutschrift &amp;entfernen</translation>
    </message>
    <message>
        <source>Promo codes:</source>
        <translation>Aktionscodes:</translation>
    </message>
    <message>
        <source>Add &amp;code</source>
        <translation>&amp;Code hinzufügen</translation>
    </message>
    <message>
        <source>Remove c&amp;ode</source>
        <translation>C&amp;ode entfernen</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
</context>
<context>
    <name>RewardEdit</name>
    <message>
        <source>%1: %2, expires after %3 %4</source>
        <translation>%1: %2, läuft nach %3 %4 ab</translation>
    </message>
    <message>
        <source>%1: %2, never expires</source>
        <translation>%1: %2, läuft nie ab</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>, first purchase only</source>
        <translation>, nur beim ersten Kauf</translation>
    </message>
    <message>
        <source>every plan</source>
        <translation>jeder Tarif</translation>
    </message>
    <message>
        <source>give the reward a name</source>
        <translation>geben Sie der Prämie einen Namen</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Plans</source>
        <translation>Tarife</translation>
    </message>
    <message>
        <source>Promo codes</source>
        <translation>Aktionscodes</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>Grant %1</source>
        <translation>Gutschrift %1</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>max. %1</source>
        <translation>max. %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (%2%3)</source>
        <translation>%1 (%2%3)</translation>
    </message>
</context>
<context>
    <name>RewardListModel</name>
    <message>
        <source>coupon</source>
        <translation>Gutschein</translation>
    </message>
    <message>
        <source>feature grant</source>
        <translation>Funktionsgutschrift</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Promo codes</source>
        <translation>Aktionscodes</translation>
    </message>
</context>
<context>
    <name>RewardsPage</name>
    <message>
        <source>Rewards could not be read: %1</source>
        <translation>Prämien konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>%1 gespeichert.</translation>
    </message>
</context>
<context>
    <name>SandboxClockDialog</name>
    <message>
        <source>Sandbox clock</source>
        <translation>Sandbox-Uhr</translation>
    </message>
    <message>
        <source>Reading the sandbox&apos;s clock…</source>
        <translation>Die Uhr der Sandbox wird gelesen…</translation>
    </message>
    <message>
        <source>+1 &amp;day</source>
        <translation>+1 &amp;Tag</translation>
    </message>
    <message>
        <source>+1 &amp;month</source>
        <translation>+1 &amp;Monat</translation>
    </message>
    <message>
        <source>Sandbox now:</source>
        <translation>Jetzt in der Sandbox:</translation>
    </message>
    <message>
        <source>&amp;Move it to:</source>
        <translation>&amp;Vorstellen auf:</translation>
    </message>
    <message>
        <source>Try what time does to the sandbox before it happens: every reset, rollover and expiry up to the moment you choose, in order, as production will do on its own. The clock only moves forward.</source>
        <translation>Probieren Sie aus, was die Zeit mit der Sandbox macht, bevor es geschieht: jede Zurücksetzung, jeden Übertrag und jeden Ablauf bis zum gewählten Zeitpunkt, der Reihe nach, so wie es die Produktion von selbst tun wird. Die Uhr geht nur vorwärts.</translation>
    </message>
    <message>
        <source>Re&amp;view…</source>
        <translation>&amp;Prüfen…</translation>
    </message>
    <message>
        <source>Move &amp;clock</source>
        <translation>&amp;Uhr vorstellen</translation>
    </message>
    <message>
        <source>Asking what would fall due…</source>
        <translation>Es wird erfragt, was fällig würde…</translation>
    </message>
    <message>
        <source>This workspace is production: its clock is the real time and cannot be moved. Connect with a sandbox key to try it.</source>
        <translation>Dieser Arbeitsbereich ist die Produktion: Ihre Uhr ist die wirkliche Zeit und lässt sich nicht verstellen. Verbinden Sie sich mit einem Sandbox-Schlüssel, um es auszuprobieren.</translation>
    </message>
    <message>
        <source>Wait for the preview of the moment chosen.</source>
        <translation>Warten Sie auf die Vorschau des gewählten Zeitpunkts.</translation>
    </message>
    <message>
        <source>Sandbox now</source>
        <translation>Jetzt in der Sandbox</translation>
    </message>
    <message>
        <source>What falls due</source>
        <translation>Was fällig wird</translation>
    </message>
    <message numerus="yes">
        <source>%n reset(s) giving back %1</source>
        <translation>
            <numerusform>%n Zurücksetzung, die %1 zurückgibt</numerusform>
            <numerusform>%n Zurücksetzungen, die %1 zurückgeben</numerusform>
        </translation>
    </message>
    <message>
        <source>, %1 rolled over, %2 expired</source>
        <translation>, %1 übertragen, %2 abgelaufen</translation>
    </message>
    <message>
        <source>Moving the clock and applying what falls due…</source>
        <translation>Die Uhr wird vorgestellt und das Fällige angewandt…</translation>
    </message>
    <message>
        <source>The clock only moves forward: choose a moment after %1.</source>
        <translation>Die Uhr läuft nur vorwärts: Wählen Sie einen Zeitpunkt nach %1.</translation>
    </message>
</context>
<context>
    <name>SandboxClockModel</name>
    <message>
        <source>Nothing falls due.</source>
        <translation>Nichts wird fällig.</translation>
    </message>
    <message numerus="yes">
        <source>%n reset(s), </source>
        <translation>
            <numerusform>%n Zurücksetzung, </numerusform>
            <numerusform>%n Zurücksetzungen, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rollover(s), </source>
        <translation>
            <numerusform>%n Übertrag, </numerusform>
            <numerusform>%n Überträge, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n expiry(ies) and </source>
        <translation>
            <numerusform>%n Ablauf und </numerusform>
            <numerusform>%n Abläufe und </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n subscription period(s) moved on.</source>
        <translation>
            <numerusform>%n Abonnementzeitraum weitergerückt.</numerusform>
            <numerusform>%n Abonnementzeiträume weitergerückt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Resets</source>
        <translation>Zurücksetzungen</translation>
    </message>
    <message>
        <source>Given back</source>
        <translation>Zurückgegeben</translation>
    </message>
    <message>
        <source>Rollovers</source>
        <translation>Überträge</translation>
    </message>
    <message>
        <source>Rolled over</source>
        <translation>Übertragen</translation>
    </message>
    <message>
        <source>Expiries</source>
        <translation>Abläufe</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>Abgelaufen</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <source>The file is not JSON: %1.</source>
        <translation>Die Datei ist kein JSON: %1.</translation>
    </message>
    <message>
        <source>The file is not a Meterdesk views file.</source>
        <translation>Die Datei ist keine Meterdesk-Ansichtsdatei.</translation>
    </message>
    <message>
        <source>View %1 in the file is damaged.</source>
        <translation>Ansicht %1 in der Datei ist beschädigt.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>SecretDialog</name>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>It is shown only now: copy it before closing this window.</source>
        <translation>Es wird nur jetzt angezeigt: Kopieren Sie es, bevor Sie dieses Fenster schließen.</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
</context>
<context>
    <name>ServerProbe</name>
    <message>
        <source>The server did not accept this key. Paste the whole secret key (sk_test_… or sk_live_…) and check that it has not been revoked or expired.</source>
        <translation>Der Server hat diesen Schlüssel nicht angenommen. Fügen Sie den ganzen geheimen Schlüssel ein (sk_test_… oder sk_live_…) und prüfen Sie, dass er weder widerrufen noch abgelaufen ist.</translation>
    </message>
</context>
<context>
    <name>StatementDocument</name>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>Balance</source>
        <translation>Guthaben</translation>
    </message>
    <message>
        <source>fixed price</source>
        <translation>Festpreis</translation>
    </message>
    <message>
        <source>usage</source>
        <translation>Verbrauch</translation>
    </message>
    <message>
        <source>Statement</source>
        <translation>Abrechnung</translation>
    </message>
    <message>
        <source>Total (%1)</source>
        <translation>Summe (%1)</translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Statement for %1</source>
        <translation>Abrechnung für %1</translation>
    </message>
    <message>
        <source>The statement cannot be drawn on this device.</source>
        <translation>Die Abrechnung kann auf diesem Gerät nicht gezeichnet werden.</translation>
    </message>
    <message>
        <source>Amount (%1)</source>
        <translation>Betrag (%1)</translation>
    </message>
    <message>
        <source>Charges so far</source>
        <translation>Posten bisher</translation>
    </message>
    <message>
        <source>Customer: %1</source>
        <translation>Kunde: %1</translation>
    </message>
    <message>
        <source>Period: %1</source>
        <translation>Zeitraum: %1</translation>
    </message>
    <message>
        <source>Closed %1</source>
        <translation>Abgeschlossen %1</translation>
    </message>
    <message>
        <source>Open period, so far as of %1</source>
        <translation>Offener Zeitraum, bisher, Stand %1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>Arbeitsbereich: %1</translation>
    </message>
    <message>
        <source>Statement %1</source>
        <translation>Abrechnung %1</translation>
    </message>
    <message>
        <source>Page %1 could not be started.</source>
        <translation>Seite %1 konnte nicht begonnen werden.</translation>
    </message>
    <message>
        <source>Nothing owed in this period.</source>
        <translation>In diesem Zeitraum ist nichts offen.</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Summe</translation>
    </message>
    <message>
        <source>prepaid purchase</source>
        <translation>Vorauskauf</translation>
    </message>
    <message>
        <source>credit purchase</source>
        <translation>Guthabenkauf</translation>
    </message>
</context>
<context>
    <name>StripeDriftDialog</name>
    <message>
        <source>Check &amp;again</source>
        <translation>&amp;Erneut prüfen</translation>
    </message>
    <message>
        <source>Check %1 against Stripe</source>
        <translation>%1 mit Stripe abgleichen</translation>
    </message>
    <message>
        <source>Check imported customers against Stripe</source>
        <translation>Importierte Kunden mit Stripe abgleichen</translation>
    </message>
    <message>
        <source>Each plan imported from a Stripe subscription is compared with that subscription now: status, current period, quantity and plan. Nothing is changed.</source>
        <translation>Jeder aus einem Stripe-Abonnement importierte Tarif wird mit dem jetzigen Stand dieses Abonnements verglichen: Status, laufender Zeitraum, Menge und Tarif. Nichts wird geändert.</translation>
    </message>
</context>
<context>
    <name>StripeDriftModel</name>
    <message>
        <source>Reading Stripe…</source>
        <translation>Stripe wird gelesen…</translation>
    </message>
    <message>
        <source>Could not check: %1</source>
        <translation>Abgleich nicht möglich: %1</translation>
    </message>
    <message>
        <source>No customer has a plan imported from a Stripe subscription.</source>
        <translation>Kein Kunde hat einen aus einem Stripe-Abonnement importierten Tarif.</translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) checked: Meterdesk and Stripe agree.</source>
        <translation>
            <numerusform>%n Tarif geprüft: Meterdesk und Stripe stimmen überein.</numerusform>
            <numerusform>%n Tarife geprüft: Meterdesk und Stripe stimmen überein.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n plan(s) checked; %1 difference(s). Nothing was changed.</source>
        <translation>
            <numerusform>%n Tarif geprüft; %1 Abweichung(en). Nichts wurde geändert.</numerusform>
            <numerusform>%n Tarife geprüft; %1 Abweichung(en). Nichts wurde geändert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Period start</source>
        <translation>Beginn des Zeitraums</translation>
    </message>
    <message>
        <source>Period end</source>
        <translation>Ende des Zeitraums</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Menge</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Tarif</translation>
    </message>
    <message>
        <source>Subscription gone from Stripe</source>
        <translation>Abonnement bei Stripe nicht mehr vorhanden</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Subscription</source>
        <translation>Abonnement</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>Was abweicht</translation>
    </message>
    <message>
        <source>Meterdesk</source>
        <translation>Meterdesk</translation>
    </message>
    <message>
        <source>Stripe</source>
        <translation>Stripe</translation>
    </message>
</context>
<context>
    <name>StripePriceMapping</name>
    <message>
        <source>%1 is %2</source>
        <translation>%1 ist %2</translation>
    </message>
    <message>
        <source>%1 ends %2</source>
        <translation>%1 endet am %2</translation>
    </message>
    <message>
        <source>%1 renews %2</source>
        <translation>%1 verlängert sich am %2</translation>
    </message>
    <message numerus="yes">
        <source>on %n plan(s)</source>
        <translation>
            <numerusform>auf %n Tarif</numerusform>
            <numerusform>auf %n Tarifen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StripeSourcePanel</name>
    <message>
        <source>its metadata.meterdesk_plan_id</source>
        <translation>seine metadata.meterdesk_plan_id</translation>
    </message>
    <message>
        <source>its lookup key</source>
        <translation>sein Lookup-Key</translation>
    </message>
    <message>
        <source>as mapped last time</source>
        <translation>wie beim letzten Mal zugeordnet</translation>
    </message>
    <message>
        <source>offered: the plan named as its product</source>
        <translation>vorgeschlagen: der Tarif mit dem Namen seines Produkts</translation>
    </message>
    <message>
        <source>no plan matches: choose one, or leave it out</source>
        <translation>kein Tarif passt: einen wählen oder weglassen</translation>
    </message>
    <message>
        <source>&amp;Read Stripe</source>
        <translation>Stripe &amp;lesen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Reads the subscriptions of the Stripe account this connection&apos;s organization has connected, then asks which plan each price is.</source>
        <translation>Liest die Abonnements des Stripe-Kontos, das die Organisation dieser Verbindung verbunden hat, und fragt dann, welcher Tarif jeder Preis ist.</translation>
    </message>
    <message>
        <source>Stripe price</source>
        <translation>Stripe-Preis</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Subscriptions</source>
        <translation>Abonnements</translation>
    </message>
    <message>
        <source>Meterdesk plan</source>
        <translation>Meterdesk-Tarif</translation>
    </message>
    <message>
        <source>Reading Stripe…</source>
        <translation>Stripe wird gelesen…</translation>
    </message>
    <message numerus="yes">
        <source>%n subscription(s) read…</source>
        <translation>
            <numerusform>%n Abonnement gelesen…</numerusform>
            <numerusform>%n Abonnements gelesen…</numerusform>
        </translation>
    </message>
    <message>
        <source>Canceled: nothing was read.</source>
        <translation>Abgebrochen: nichts wurde gelesen.</translation>
    </message>
    <message>
        <source>(leave out)</source>
        <translation>(weglassen)</translation>
    </message>
    <message numerus="yes">
        <source>%n customer(s) to import from %1 subscription(s); %2 left out (ended, or no plan for their price); %3 price(s) without a plan; %4 to review.</source>
        <translation>
            <numerusform>%n Kunde zu importieren aus %1 Abonnement(s); %2 weggelassen (beendet, oder kein Tarif für ihren Preis); %3 Preis(e) ohne Tarif; %4 zu prüfen.</numerusform>
            <numerusform>%n Kunden zu importieren aus %1 Abonnement(s); %2 weggelassen (beendet, oder kein Tarif für ihren Preis); %3 Preis(e) ohne Tarif; %4 zu prüfen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TenantListModel</name>
    <message>
        <source>tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <source>platform (this key)</source>
        <translation>Plattform (dieser Schlüssel)</translation>
    </message>
    <message>
        <source>not linked</source>
        <translation>nicht verknüpft</translation>
    </message>
    <message>
        <source>Slug</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Test account</source>
        <translation>Testkonto</translation>
    </message>
    <message>
        <source>Live account</source>
        <translation>Live-Konto</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
</context>
<context>
    <name>TenantsPage</name>
    <message>
        <source>&amp;Link processor account…</source>
        <translation>Zahlungskonto &amp;verknüpfen …</translation>
    </message>
    <message>
        <source>Organizations could not be read: %1</source>
        <translation>Organisationen konnten nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Stripe &amp;key…</source>
        <translation>Stripe-&amp;Schlüssel…</translation>
    </message>
</context>
<context>
    <name>UsageAlertModel</name>
    <message>
        <source>usage reaches %1</source>
        <translation>Nutzung erreicht %1</translation>
    </message>
    <message>
        <source>usage reaches %1 %</source>
        <translation>Nutzung erreicht %1 %</translation>
    </message>
    <message>
        <source>%1 or less remaining</source>
        <translation>%1 oder weniger übrig</translation>
    </message>
    <message>
        <source>%1 % or less remaining</source>
        <translation>%1 % oder weniger übrig</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>UsageBackfill</name>
    <message>
        <source>the server answered %1 of %2 events</source>
        <translation>der Server hat %1 von %2 Ereignissen beantwortet</translation>
    </message>
</context>
<context>
    <name>UsageChangeModel</name>
    <message>
        <source>An estimate: this balance has more events than one dry run plans together</source>
        <translation>Eine Schätzung: dieses Guthaben hat mehr Ereignisse, als ein Probelauf zusammen plant</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Remaining before</source>
        <translation>Rest vorher</translation>
    </message>
    <message>
        <source>Remaining after</source>
        <translation>Rest nachher</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Verbraucht</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Usage drawn from what rolled over from earlier periods, before the remaining balance, which leaves rollovers out</source>
        <translation>Verbrauch aus den Überträgen früherer Zeiträume, vor dem Rest, der Überträge nicht enthält</translation>
    </message>
    <message>
        <source>From rollovers</source>
        <translation>Aus Überträgen</translation>
    </message>
</context>
<context>
    <name>UsageChart</name>
    <message>
        <source>No usage events match the filter.</source>
        <translation>Keine Verbrauchsereignisse passen zum Filter.</translation>
    </message>
    <message>
        <source>Chart measure</source>
        <translation>Diagrammgröße</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Andere</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Stacked by model</source>
        <translation>Gestapelt nach Modell</translation>
    </message>
    <message>
        <source>Stacked by customer</source>
        <translation>Gestapelt nach Kunde</translation>
    </message>
    <message>
        <source>Stacked by feature</source>
        <translation>Gestapelt nach Funktion</translation>
    </message>
    <message>
        <source>Cost (USD)</source>
        <translation>Kosten (USD)</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Chart stacking</source>
        <translation>Diagrammstapelung</translation>
    </message>
    <message>
        <source>Units used (other features)</source>
        <translation>Verbrauchte Einheiten (andere Funktionen)</translation>
    </message>
    <message>
        <source>%1 Partial: the range covers only part of it (its first day from this hour on; today, so far).</source>
        <translation>%1 Teilweise: Der Zeitraum deckt nur einen Teil davon ab (seinen ersten Tag ab dieser Stunde; heute bis jetzt).</translation>
    </message>
</context>
<context>
    <name>UsageEventModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>Tokens by pool</source>
        <translation>Token nach Pool</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Verbraucht</translation>
    </message>
    <message>
        <source>Credits of %1 the call cost</source>
        <translation>Guthaben von %1, das der Aufruf kostete</translation>
    </message>
    <message>
        <source>Units of %1 used (negative: given back)</source>
        <translation>Verbrauchte Einheiten von %1 (negativ: zurückgegeben)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>an amount and its unit: 2.08 AI credits</comment>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>UsageFile</name>
    <message>
        <source>not a time: give milliseconds since 1970 or an ISO 8601 date and time</source>
        <translation>keine Zeit: Millisekunden seit 1970 oder Datum und Uhrzeit nach ISO 8601 angeben</translation>
    </message>
    <message>
        <source>usage events</source>
        <translation>Nutzungsereignissen</translation>
    </message>
</context>
<context>
    <name>UsageImportWizard</name>
    <message>
        <source>Import usage</source>
        <translation>Nutzung importieren</translation>
    </message>
    <message>
        <source>Stop after the request in flight? What was committed stays, and the journal beside the file lets you resume later.</source>
        <translation>Nach der laufenden Anfrage anhalten? Was übernommen wurde, bleibt, und mit dem Journal neben der Datei lässt sich später fortsetzen.</translation>
    </message>
    <message>
        <source>Stop the dry run?</source>
        <translation>Den Probelauf anhalten?</translation>
    </message>
</context>
<context>
    <name>UsageJournal</name>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>UsageNoBalanceModel</name>
    <message>
        <source>Recorded, drawing on no balance: this entity holds none of this feature</source>
        <translation>Erfasst, ohne ein Guthaben zu belasten: diese Entität hat keines dieser Funktion</translation>
    </message>
    <message>
        <source>Recorded, drawing on no balance: the customer holds none of this feature (an entity&apos;s balance is drawn on only by events that name the entity)</source>
        <translation>Erfasst, ohne ein Guthaben zu belasten: der Kunde hat keines dieser Funktion (das Guthaben einer Entität belasten nur Ereignisse, die die Entität nennen)</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Entity</source>
        <translation>Entität</translation>
    </message>
    <message>
        <source>Feature</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Recorded</source>
        <translation>Erfasst</translation>
    </message>
</context>
<context>
    <name>UsagePage</name>
    <message>
        <source>Customer id</source>
        <translation>Kunden-ID</translation>
    </message>
    <message>
        <source>Feature id</source>
        <translation>Funktions-ID</translation>
    </message>
    <message>
        <source>Model, e.g. openai/gpt-4o</source>
        <translation>Modell, z. B. openai/gpt-4o</translation>
    </message>
    <message>
        <source>Customer filter</source>
        <translation>Kundenfilter</translation>
    </message>
    <message>
        <source>Feature filter</source>
        <translation>Funktionsfilter</translation>
    </message>
    <message>
        <source>Model filter</source>
        <translation>Modellfilter</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>Letzte 90 Tage</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>&amp;Price a call…</source>
        <translation>Aufruf &amp;bepreisen …</translation>
    </message>
    <message>
        <source>What a model call costs with a customer&apos;s markups</source>
        <translation>Was ein Modellaufruf mit den Aufschlägen eines Kunden kostet</translation>
    </message>
    <message>
        <source>Filter:</source>
        <translation>Filter:</translation>
    </message>
    <message>
        <source>Usage events could not be read: %1</source>
        <translation>Verbrauchsereignisse konnten nicht gelesen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln events</source>
        <translation>
            <numerusform>%Ln Ereignis</numerusform>
            <numerusform>%Ln Ereignisse</numerusform>
        </translation>
    </message>
    <message>
        <source>E&amp;xport events…</source>
        <translation>Ereignisse e&amp;xportieren …</translation>
    </message>
    <message>
        <source>Usage events</source>
        <translation>Verbrauchsereignisse</translation>
    </message>
    <message>
        <source>Export usage events</source>
        <translation>Verbrauchsereignisse exportieren</translation>
    </message>
    <message>
        <source>usage-events.csv</source>
        <translation>verbrauchsereignisse.csv</translation>
    </message>
    <message>
        <source>&amp;Import usage…</source>
        <translation>Nutzung &amp;importieren …</translation>
    </message>
    <message>
        <source>Record past usage from a CSV or JSON file, after a dry run</source>
        <translation>Vergangene Nutzung aus einer CSV- oder JSON-Datei erfassen, nach einem Probelauf</translation>
    </message>
    <message>
        <source>Usage could not be added up: %1</source>
        <translation>Die Nutzung konnte nicht summiert werden: %1</translation>
    </message>
    <message>
        <source>Adding up usage…</source>
        <translation>Nutzung wird summiert …</translation>
    </message>
</context>
<context>
    <name>UsageRefusalModel</name>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Feature or model</source>
        <translation>Funktion oder Modell</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
</context>
<context>
    <name>UsageRunPage</name>
    <message>
        <source>Run a&amp;gain</source>
        <translation>&amp;Noch einmal</translation>
    </message>
    <message>
        <source>Dry run</source>
        <translation>Probelauf</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>What the server would do with every event, in the file&apos;s order for each customer. Nothing is written.</source>
        <translation>Was der Server mit jedem Ereignis täte, für jeden Kunden in der Reihenfolge der Datei. Nichts wird geschrieben.</translation>
    </message>
    <message>
        <source>The events go to the server 1,000 at a time. Cancel stops after the request in flight; run the wizard again on the same file to resume.</source>
        <translation>Die Ereignisse gehen zu je 1.000 an den Server. Anhalten stoppt nach der laufenden Anfrage; den Assistenten erneut mit derselben Datei starten, um fortzusetzen.</translation>
    </message>
    <message>
        <source>Co&amp;mmit</source>
        <translation>Ü&amp;bernehmen</translation>
    </message>
    <message>
        <source>Balances before and after</source>
        <translation>Guthaben vorher und nachher</translation>
    </message>
    <message>
        <source>Refused events</source>
        <translation>Abgelehnte Ereignisse</translation>
    </message>
    <message>
        <source>Planning…</source>
        <translation>Plane …</translation>
    </message>
    <message>
        <source>Committing…</source>
        <translation>Übernehme …</translation>
    </message>
    <message numerus="yes">
        <source>%Ln balance(s) change; </source>
        <translation>
            <numerusform>%Ln Guthaben ändert sich; </numerusform>
            <numerusform>%Ln Guthaben ändern sich; </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) would be refused.</source>
        <translation>
            <numerusform>%Ln Ereignis würde abgelehnt.</numerusform>
            <numerusform>%Ln Ereignisse würden abgelehnt.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) applied, </source>
        <translation>
            <numerusform>%Ln Ereignis angewandt, </numerusform>
            <numerusform>%Ln Ereignisse angewandt, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln recorded by an earlier run, </source>
        <translation>
            <numerusform>%Ln von einem früheren Lauf erfasst, </numerusform>
            <numerusform>%Ln von einem früheren Lauf erfasst, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln refused.</source>
        <translation>
            <numerusform>%Ln abgelehnt.</numerusform>
            <numerusform>%Ln abgelehnt.</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Angehalten: %1</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 events.</source>
        <translation>Abgebrochen nach %1 von %2 Ereignissen.</translation>
    </message>
    <message>
        <source>&amp;Stop run</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <source>Recorded, drawing on no balance</source>
        <translation>Erfasst, ohne ein Guthaben zu belasten</translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) would be recorded drawing on no balance; </source>
        <translation>
            <numerusform>%Ln Ereignis würde erfasst, ohne ein Guthaben zu belasten; </numerusform>
            <numerusform>%Ln Ereignisse würden erfasst, ohne ein Guthaben zu belasten; </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UsageSourcePage</name>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Past usage as CSV, a JSON array or JSON Lines (see docs/import-formats.md, &quot;Usage&quot;). Nothing is sent until the commit.</source>
        <translation>Vergangene Nutzung als CSV, JSON-Array oder JSON Lines (siehe docs/import-formats.md, „Usage“). Bis zum Übernehmen wird nichts gesendet.</translation>
    </message>
    <message>
        <source>usage.csv, .json or .jsonl</source>
        <translation>usage.csv, .json oder .jsonl</translation>
    </message>
    <message>
        <source>Usage file</source>
        <translation>Nutzungsdatei</translation>
    </message>
    <message>
        <source>C&amp;ustomer id:</source>
        <translation>&amp;Kunden-ID:</translation>
    </message>
    <message>
        <source>Fea&amp;ture id:</source>
        <translation>&amp;Funktions-ID:</translation>
    </message>
    <message>
        <source>&amp;Model (AI calls):</source>
        <translation>&amp;Modell (KI-Aufrufe):</translation>
    </message>
    <message>
        <source>&amp;Input tokens:</source>
        <translation>&amp;Eingabe-Tokens:</translation>
    </message>
    <message>
        <source>&amp;Output tokens:</source>
        <translation>Ausga&amp;be-Tokens:</translation>
    </message>
    <message>
        <source>Idempotency &amp;key:</source>
        <translation>Idempotenz-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>Delete profile</source>
        <translation>Profil löschen</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>&amp;Profil:</translation>
    </message>
    <message>
        <source>Saved column profiles</source>
        <translation>Gespeicherte Spaltenprofile</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>Zeile</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>Spalte</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>Zelle</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>Rows with problems</source>
        <translation>Zeilen mit Problemen</translation>
    </message>
    <message>
        <source>Usage (*.csv *.json *.jsonl);;All files (*)</source>
        <translation>Nutzung (*.csv *.json *.jsonl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Lese …</translation>
    </message>
    <message numerus="yes">
        <source>%Ln row(s): </source>
        <translation>
            <numerusform>%Ln Zeile: </numerusform>
            <numerusform>%Ln Zeilen: </numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ready to send, %2 with problems (left out; fix them in the file and read it again).</source>
        <translation>%1 bereit zum Senden, %2 mit Problemen (ausgelassen; in der Datei beheben und neu lesen).</translation>
    </message>
    <message>
        <source>(not in the file)</source>
        <translation>(nicht in der Datei)</translation>
    </message>
    <message>
        <source>&amp;Resume: %1 of %2 events were committed on %3; send the rest</source>
        <translation>F&amp;ortsetzen: %1 von %2 Ereignissen wurden am %3 übernommen; den Rest senden</translation>
    </message>
    <message>
        <source>Save profile</source>
        <translation>Profil speichern</translation>
    </message>
    <message>
        <source>Profile name:</source>
        <translation>Profilname:</translation>
    </message>
    <message>
        <source>Bro&amp;wse…</source>
        <translation>D&amp;urchsuchen …</translation>
    </message>
    <message>
        <source>Fi&amp;le:</source>
        <translation>&amp;Datei:</translation>
    </message>
    <message>
        <source>&amp;Value:</source>
        <translation>We&amp;rt:</translation>
    </message>
    <message>
        <source>Tim&amp;e:</source>
        <translation>Ze&amp;it:</translation>
    </message>
    <message>
        <source>Entit&amp;y id:</source>
        <translation>E&amp;ntitäts-ID:</translation>
    </message>
    <message>
        <source>S&amp;ave as profile…</source>
        <translation>Als Profil spei&amp;chern …</translation>
    </message>
</context>
<context>
    <name>WebhookDeliveryModel</name>
    <message>
        <source>Not sent yet.</source>
        <translation>Noch nicht gesendet.</translation>
    </message>
    <message>
        <source>The receiver answered %1.</source>
        <translation>Der Empfänger antwortete %1.</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Zugestellt</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Event at</source>
        <translation>Ereignis am</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
</context>
<context>
    <name>WebhookEndpointDialog</name>
    <message>
        <source>Edit webhook endpoint</source>
        <translation>Webhook-Endpunkt bearbeiten</translation>
    </message>
    <message>
        <source>New webhook endpoint</source>
        <translation>Neuer Webhook-Endpunkt</translation>
    </message>
    <message>
        <source>what receives them, for the people who read this</source>
        <translation>was sie empfängt, für die Leser dieser Liste</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>&amp;Beschreibung:</translation>
    </message>
    <message>
        <source>What changes on %1:</source>
        <translation>Was sich an %1 ändert:</translation>
    </message>
    <message>
        <source>The endpoint to make:</source>
        <translation>Der neue Endpunkt:</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>&amp;All events, also those added later</source>
        <translation>&amp;Alle Ereignisse, auch später hinzukommende</translation>
    </message>
    <message>
        <source>Se&amp;nd events to this endpoint</source>
        <translation>Ereignisse an diesen Endpunkt se&amp;nden</translation>
    </message>
    <message>
        <source>Events it &amp;hears:</source>
        <translation>&amp;Ereignisse, die er erhält:</translation>
    </message>
</context>
<context>
    <name>WebhookEndpointModel</name>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Sending</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Every event</source>
        <translation>Jedes Ereignis</translation>
    </message>
    <message>
        <source>A usage alert fired</source>
        <translation>Eine Verbrauchswarnung wurde ausgelöst</translation>
    </message>
    <message>
        <source>A spend or usage limit refused a call</source>
        <translation>Ein Ausgaben- oder Verbrauchslimit lehnte einen Aufruf ab</translation>
    </message>
    <message>
        <source>A balance was reset</source>
        <translation>Ein Guthaben wurde zurückgesetzt</translation>
    </message>
    <message>
        <source>A balance expired</source>
        <translation>Ein Guthaben ist abgelaufen</translation>
    </message>
    <message>
        <source>An accepted async call failed</source>
        <translation>Ein angenommener asynchroner Aufruf schlug fehl</translation>
    </message>
    <message>
        <source>A customer was imported</source>
        <translation>Ein Kunde wurde importiert</translation>
    </message>
    <message>
        <source>A product changed</source>
        <translation>Ein Produkt wurde geändert</translation>
    </message>
    <message>
        <source>A reward changed</source>
        <translation>Eine Prämie wurde geändert</translation>
    </message>
    <message>
        <source>The sandbox was promoted to production</source>
        <translation>Die Sandbox wurde in die Produktion übernommen</translation>
    </message>
    <message>
        <source>A balance was adjusted by hand</source>
        <translation>Ein Guthaben wurde von Hand berichtigt</translation>
    </message>
    <message>
        <source>A test event</source>
        <translation>Ein Testereignis</translation>
    </message>
    <message>
        <source>every event</source>
        <translation>jedes Ereignis</translation>
    </message>
    <message>
        <source>Off: %1</source>
        <translation>Aus: %1</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Failing since %1</source>
        <translation>Fehlschläge seit %1</translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation>In Ordnung</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>A balance was made by hand</source>
        <translation>Ein Guthaben wurde von Hand angelegt</translation>
    </message>
</context>
<context>
    <name>WebhooksPage</name>
    <message>
        <source>&amp;New endpoint…</source>
        <translation>&amp;Neuer Endpunkt …</translation>
    </message>
    <message>
        <source>R&amp;otate secret…</source>
        <translation>Geheimnis &amp;erneuern …</translation>
    </message>
    <message>
        <source>&amp;Redeliver</source>
        <translation>E&amp;rneut senden</translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation>Endpunkte</translation>
    </message>
    <message>
        <source>No endpoint hears this environment&apos;s events yet. New endpoint… adds one: an https URL, the events it wants, and a secret to check them.</source>
        <translation>Noch kein Endpunkt erhält die Ereignisse dieser Umgebung. Neuer Endpunkt … fügt einen hinzu: eine https-URL, die gewünschten Ereignisse und ein Geheimnis, um sie zu prüfen.</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>Jeder Status</translation>
    </message>
    <message>
        <source>Any event</source>
        <translation>Jedes Ereignis</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>St&amp;atus</source>
        <translation>St&amp;atus</translation>
    </message>
    <message>
        <source>Select a delivery to see the event as it was sent.</source>
        <translation>Wählen Sie eine Zustellung, um das Ereignis so zu sehen, wie es gesendet wurde.</translation>
    </message>
    <message>
        <source>The webhook endpoints could not be loaded: %1</source>
        <translation>Die Webhook-Endpunkte konnten nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>The deliveries could not be loaded: %1</source>
        <translation>Die Zustellungen konnten nicht geladen werden: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 (%Ln attempt(s)), webhook-id %3</source>
        <translation>
            <numerusform>%1, %2 (%Ln Versuch), webhook-id %3</numerusform>
            <numerusform>%1, %2 (%Ln Versuche), webhook-id %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Webhook endpoint %1 made.</source>
        <translation>Webhook-Endpunkt %1 angelegt.</translation>
    </message>
    <message>
        <source>Webhook endpoint %1 saved.</source>
        <translation>Webhook-Endpunkt %1 gespeichert.</translation>
    </message>
    <message>
        <source>A test event is on its way to %1.</source>
        <translation>Ein Testereignis ist unterwegs zu %1.</translation>
    </message>
    <message>
        <source>The test event was not sent: %1</source>
        <translation>Das Testereignis wurde nicht gesendet: %1</translation>
    </message>
    <message>
        <source>Rotate the signing secret</source>
        <translation>Signaturgeheimnis erneuern</translation>
    </message>
    <message>
        <source>Make a new signing secret for %1? The current one keeps signing beside it for 24 hours; the receiver should switch within that day.</source>
        <translation>Ein neues Signaturgeheimnis für %1 erzeugen? Das bisherige signiert noch 24 Stunden daneben; der Empfänger sollte innerhalb dieses Tages wechseln.</translation>
    </message>
    <message>
        <source>Secret not rotated</source>
        <translation>Geheimnis nicht erneuert</translation>
    </message>
    <message>
        <source>Delete the webhook endpoint</source>
        <translation>Webhook-Endpunkt löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %1? Its %Ln waiting delivery(s) and its history go with it; nothing more is sent there.</source>
        <translation>
            <numerusform>%1 löschen? Seine %Ln wartende Zustellung und sein Verlauf gehen mit; dorthin wird nichts mehr gesendet.</numerusform>
            <numerusform>%1 löschen? Seine %Ln wartenden Zustellungen und sein Verlauf gehen mit; dorthin wird nichts mehr gesendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Webhook endpoint %1 deleted.</source>
        <translation>Webhook-Endpunkt %1 gelöscht.</translation>
    </message>
    <message>
        <source>%1 was not deleted: %2</source>
        <translation>%1 wurde nicht gelöscht: %2</translation>
    </message>
    <message>
        <source>%1 will be sent again now, as %2.</source>
        <translation>%1 wird jetzt erneut gesendet, als %2.</translation>
    </message>
    <message>
        <source>Not sent again: %1</source>
        <translation>Nicht erneut gesendet: %1</translation>
    </message>
    <message>
        <source>Ed&amp;it…</source>
        <translation>Bearbe&amp;iten …</translation>
    </message>
    <message>
        <source>Send te&amp;st event</source>
        <translation>&amp;Testereignis senden</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen …</translation>
    </message>
    <message>
        <source>Event t&amp;ype</source>
        <translation>Ereignist&amp;yp</translation>
    </message>
    <message>
        <source>Signing secret</source>
        <translation>Signaturgeheimnis</translation>
    </message>
    <message>
        <source>The new signing secret of %1. The previous one keeps signing beside it for 24 hours, so the receiver can switch without refusing a delivery.</source>
        <translation>Das neue Signaturgeheimnis von %1. Das bisherige signiert noch 24 Stunden daneben, sodass der Empfänger wechseln kann, ohne eine Zustellung abzulehnen.</translation>
    </message>
    <message>
        <source>The signing secret of %1. Give it to the receiver, which checks every delivery&apos;s webhook-signature with it (Standard Webhooks).</source>
        <translation>Das Signaturgeheimnis von %1. Geben Sie es dem Empfänger, der damit die webhook-signature jeder Zustellung prüft (Standard Webhooks).</translation>
    </message>
</context>
<context>
    <name>Workbook</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Cannot save %1</source>
        <translation>%1 kann nicht gespeichert werden</translation>
    </message>
</context>
<context>
    <name>WorkspaceStatus</name>
    <message>
        <source>Server %1</source>
        <translation>Server %1</translation>
    </message>
    <message>
        <source>PostgreSQL database %1 on %2</source>
        <translation>PostgreSQL-Datenbank %1 auf %2</translation>
    </message>
    <message>
        <source>Workspace %1 on this computer</source>
        <translation>Arbeitsbereich %1 auf diesem Computer</translation>
    </message>
    <message>
        <source>this connection (who it is could not be read: %1)</source>
        <translation>diese Verbindung (wer sie ist, ließ sich nicht lesen: %1)</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Desktop console for usage-based billing.</source>
        <translation>Desktop-Konsole für nutzungsbasierte Abrechnung.</translation>
    </message>
    <message>
        <source>SQLite file or postgresql:// URL of the workspace.</source>
        <translation>SQLite-Datei oder postgresql://-URL des Arbeitsbereichs.</translation>
    </message>
    <message>
        <source>Base URL of a remote billing server (asks for the API key).</source>
        <translation>Basis-URL eines entfernten Abrechnungsservers (fragt nach dem API-Schlüssel).</translation>
    </message>
    <message>
        <source>Load the demo workspace if the database is empty.</source>
        <translation>Den Demo-Arbeitsbereich laden, wenn die Datenbank leer ist.</translation>
    </message>
    <message>
        <source>meterdesk: give --database or --server, not both.
</source>
        <translation>meterdesk: Geben Sie --database oder --server an, nicht beides.
</translation>
    </message>
    <message>
        <source>A models.dev price catalogue file for embedded workspaces.</source>
        <translation>Eine models.dev-Preiskatalogdatei für eingebettete Arbeitsbereiche.</translation>
    </message>
    <message>
        <source>Exit status:
  0  The window was closed.
  2  The command line is wrong.</source>
        <translation>Exit-Status:
  0  Das Fenster wurde geschlossen.
  2  Die Befehlszeile ist falsch.</translation>
    </message>
    <message>
        <source>Try &apos;meterdesk --help&apos; for the options.</source>
        <translation>Die Optionen zeigt &apos;meterdesk --help&apos;.</translation>
    </message>
    <message>
        <source>The language of this run: system, en or de (Edit &gt; Preferences keeps one for every run).</source>
        <translation>Die Sprache dieses Laufs: system, en oder de (Bearbeiten &gt; Einstellungen behält eine für jeden Lauf).</translation>
    </message>
    <message>
        <source>--lang takes %1, not &quot;%2&quot;.</source>
        <translation>--lang nimmt %1, nicht &quot;%2&quot;.</translation>
    </message>
</context>
<context>
    <name>md::views::ExportFileDialog</name>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Excel workbooks (*.xlsx)</source>
        <translation>Excel-Arbeitsmappen (*.xlsx)</translation>
    </message>
    <message>
        <source>PDF reports (*.pdf)</source>
        <translation>PDF-Berichte (*.pdf)</translation>
    </message>
</context>
</TS>
