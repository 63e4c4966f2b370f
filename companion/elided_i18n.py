"""Django's i18n template tags, with {% blocktranslate %} making the French elisions its values ask
for ("Feuille d'Ann", issue 43): settings.TEMPLATES loads it as a builtin in place of Django's, and
no template loads Django's again with {% load i18n %} (a test checks).

A blocktranslate's French is the translator's, and correct; the only place a "de" can meet a vowel
is where a value goes in, so eliding its output touches nothing else. Other languages pass through.
"""

from __future__ import annotations

from django import template
from django.templatetags import i18n as django_i18n
from django.utils import translation
from django.utils.safestring import SafeString

from companion.games.elision import elide_text

register = template.Library()
register.tags.update(django_i18n.register.tags)
register.filters.update(django_i18n.register.filters)


class ElidedBlockTranslateNode(django_i18n.BlockTranslateNode):
    def render(self, context, nested=False):
        said = super().render(context, nested)
        if not (translation.get_language() or "").startswith("fr"):
            return said
        if self.asvar:
            context[self.asvar] = SafeString(elide_text(context[self.asvar]))
            return said
        return SafeString(elide_text(said))


@register.tag("blocktranslate")
@register.tag("blocktrans")
def do_block_translate(parser, token):
    node = django_i18n.do_block_translate(parser, token)
    node.__class__ = ElidedBlockTranslateNode
    return node
