package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReceiptTest {
    @Test
    void centsAreFormatted() {
        assertEquals("12.34", Receipt.formatCents(1234));
    }
}
