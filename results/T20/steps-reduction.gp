# steps-reduction.gp - written by akm from the CSV files in this folder.
# Re-render steps-reduction.png and steps-reduction.svg from inside this folder:  gnuplot steps-reduction.gp
set datafile separator ','
set datafile missing NaN
set title 'T20 steps-to-target reduction of AK over its base (mean ± sd over seeds; > 0: AK faster)'
set xlabel '0–1 linear, 2–3 logistic, 4–5 teacher (even: AK-SGD vs SGD-m, odd: AK-AdamW vs AdamW)'
set ylabel '1 − steps_AK / steps_base'
set grid
set key outside top left horizontal
set xrange [-0.5:5.5]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'steps-reduction.png'
plot 'data_summary.csv' every ::1 using 3:7:8 with yerrorbars pt 7 ps 0.8 title 'reduction', \
     0 notitle lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'steps-reduction.svg'
replot
unset output
