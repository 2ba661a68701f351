# stability-scale.gp - written by akm from the CSV files in this folder.
# Re-render stability-scale.png and stability-scale.svg from inside this folder:  gnuplot stability-scale.gp
set datafile separator ','
set datafile missing NaN
set title 'T7 final buffer norm vs input scale (M_0 = I, δ = 0, T = 40, β = 0.9)'
set xlabel 'input scale s (keys multiplied by s)'
set ylabel 'mean log_{10} ‖M_T‖_{op}'
set logscale x
set grid
set key outside top left horizontal
set arrow from 1.5,graph 0 to 1.5,graph 1 nohead dt 2 lc rgb 'gray50'
set arrow from 2.1794494717703365,graph 0 to 2.1794494717703365,graph 1 nohead lw 2 lc rgb 'red'
set label 'ηλ_{max}s^2 = β' at 1.5,graph 0.06 right offset -0.5,0 tc rgb 'gray40'
set label 'ηλ_{max}s^2 = 1+β (raw mean diverges)' at 2.1794494717703365,graph 0.12 left offset 0.5,0 tc rgb 'red'
set key inside top left Left reverse font ',9' box opaque
set xrange [5e-4:2e3]
set linetype 1 lc rgb '#e41a1c'
set linetype 2 lc rgb '#ff7f00'
set linetype 3 lc rgb '#a65628'
set linetype 4 lc rgb '#f781bf'
set linetype 5 lc rgb '#984ea3' dt 2
set linetype 6 lc rgb 'black' dt 3
set linetype 7 lc rgb '#377eb8'
set linetype 8 lc rgb '#80b1d3'
set linetype 9 lc rgb '#4daf4a'
set linetype 10 lc rgb '#b2df8a'
set linetype 11 lc rgb '#666666' dt 2
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'stability-scale.png'
plot 'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian raw' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'raw gaussian', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'rademacher raw' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'raw rademacher', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'student-nu3 raw' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'raw student-nu3', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'mixture raw' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'raw mixture', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian raw' ? $8 : NaN) with lines lw 2 title 'raw gaussian: pathwise lower bound L(s) = E(1/n)log_{10}|det M_T|', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian raw' ? $10 : NaN) with lines lw 2 title 'raw gaussian: log_{10}‖E[M_T]‖ = T log_{10}max_i|β−ηλ_is^2|', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian normalized eta=0.5' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'normalized η=0.5 gaussian', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian normalized eta=1.5' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'normalized η=1.5 gaussian', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'student-nu3 normalized eta=0.5' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'normalized η=0.5 student-nu3', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'student-nu3 normalized eta=1.5' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'normalized η=1.5 student-nu3', \
     'data_scale.csv' every ::1 using 4:(strcol(3) eq 'gaussian normalized eta=0.5' ? $9 : NaN) with lines lw 2 title 'normalized: sure bound T·log_{10}max(β,|β−η|)'
set terminal svg size 900,600 dynamic enhanced
set output 'stability-scale.svg'
replot
unset output
